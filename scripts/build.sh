#!/usr/bin/env bash
# Configures and builds geotrain into build/ (warnings are errors).
# Usage: scripts/build.sh [--quickstart]
#   --quickstart  the geotrain binary alone (what the quickstart runs); without it,
#                 everything: the binary, the tests and the benchmarks
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--quickstart" ]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGEOTRAIN_WERROR=ON -DGEOTRAIN_TESTS=OFF >/dev/null
  cmake --build build -j"$(nproc)" --target geotrain
else
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DGEOTRAIN_WERROR=ON -DGEOTRAIN_TESTS=ON >/dev/null
  cmake --build build -j"$(nproc)"
fi
