#!/usr/bin/env bash
# The README's second command (and CI's): install what is missing, build, run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --slurm
scripts/build.sh
cd build && ctest --output-on-failure -j"$(nproc)"
