#!/usr/bin/env bash
# A sweep spread over a Slurm job array: task i of n runs shard i/n into a
# shared output directory; a final step rebuilds results.csv from every shard.
#   sbatch --array=0-3 examples/sweeps/slurm-array.sh examples/sweeps/arch-bandwidth.json /shared/out/sweep
#   (after the array) geotrain sweep examples/sweeps/arch-bandwidth.json --out /shared/out/sweep
#SBATCH --job-name=geotrain-sweep
#SBATCH --cpus-per-task=1
set -euo pipefail
SWEEP=$1
OUT=$2
exec geotrain sweep "$SWEEP" --out "$OUT" -q --shard "${SLURM_ARRAY_TASK_ID}/${SLURM_ARRAY_TASK_COUNT}"
