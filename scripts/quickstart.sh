#!/usr/bin/env bash
# The README's first command: install what is missing, build, run the quickstart.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --quickstart
scripts/build.sh --quickstart
build/geotrain sim scenarios/quickstart.json --out out/quickstart
echo "summary: out/quickstart/summary.json  timeline: out/quickstart/timeline.csv"
