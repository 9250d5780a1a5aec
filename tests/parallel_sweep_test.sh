#!/usr/bin/env bash
# examples/sweeps/parallel.sh for real: a 4-point sweep spread by GNU parallel
# over two shards, merged, and compared with the same sweep run unsharded.
# Without GNU parallel (scripts/setup.sh --slurm installs it) it says so and
# exits 77, which ctest reports as skipped.
# usage: parallel_sweep_test.sh SOURCE_DIR GEOTRAIN_BINARY
set -euo pipefail
SRC=$1
BIN=$2
command -v parallel >/dev/null || { echo "SKIPPED: GNU parallel not installed (scripts/setup.sh --slurm)"; exit 77; }

WORK=$(mktemp -d /tmp/geotrain-parallel-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
source "$(dirname "$0")/tiny_sweep.sh"
tiny_sweep "$WORK" "$SRC" "$BIN" parallel

"$SRC/examples/sweeps/parallel.sh" "$WORK/sweep.json" "$WORK/spread" 2 </dev/null 2>&1 | tee "$WORK/spread.txt"
# The script's final unsharded step must find every point already run by the shards.
grep -q "0 points in this shard run, 4 already finished" "$WORK/spread.txt" ||
  { echo "FAIL: the parallel shards did not run every point"; exit 1; }
geotrain sweep "$WORK/sweep.json" --out "$WORK/whole" -q -j 1

# Every column but the wall-clock ones must agree row for row.
strip() { python3 - "$1" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    print({k: v for k, v in r.items() if "wall" not in k})
PY
}
rows=$(($(wc -l < "$WORK/spread/results.csv") - 1))
[ "$rows" -eq 4 ] || { echo "FAIL: results.csv has $rows rows, expected 4"; exit 1; }
if ! diff <(strip "$WORK/spread/results.csv") <(strip "$WORK/whole/results.csv"); then
  echo "FAIL: the GNU parallel shards and the unsharded sweep disagree"
  exit 1
fi
echo "PASS: 4 sweep points spread over 2 GNU parallel slots match the unsharded sweep"
