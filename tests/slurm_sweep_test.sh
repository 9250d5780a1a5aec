#!/usr/bin/env bash
# A sweep spread over a real one-node Slurm cluster as a job array
# (examples/sweeps/slurm-array.sh), then merged. Skipped (exit 77, with the
# reason) without root or Debian's Slurm packages (scripts/setup.sh --slurm).
# usage: slurm_sweep_test.sh SOURCE_DIR GEOTRAIN_BINARY
set -euo pipefail
SRC=$1
BIN=$2
source "$(dirname "$0")/slurm_cluster.sh"

# A 4-point sweep as a 2-task job array, then the merge step.
source "$(dirname "$0")/tiny_sweep.sh"
tiny_sweep "$WORK" "$SRC" "$BIN" slurm
sbatch --wait --array=0-1 --output="$WORK/log/array-%a.out" "$SRC/examples/sweeps/slurm-array.sh" \
  "$WORK/sweep.json" "$WORK/out"
geotrain sweep "$WORK/sweep.json" --out "$WORK/out" -q | tee "$WORK/merge.txt"
grep -q "0 points in this shard run, 4 already finished" "$WORK/merge.txt" || { echo "FAIL: shards did not finish every point"; cat "$WORK/log/"array-*.out; exit 1; }
rows=$(($(wc -l < "$WORK/out/results.csv") - 1))
[ "$rows" -eq 4 ] || { echo "FAIL: results.csv has $rows rows, expected 4"; exit 1; }
echo "PASS: 4 sweep points ran as a 2-task Slurm job array and merged"
