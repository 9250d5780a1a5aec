#!/usr/bin/env bash
# One geotrain role per Slurm task: 7 tasks for the quickstart (node ids 0..6:
# 0 global server, then per DC its local server and workers; `geotrain
# validate` and README "Multi-host deployment" explain the numbering).
# The config's `nodes` must list the hosts Slurm gives the tasks; /shared must
# be visible to every host (scenario, secret, outputs).
#SBATCH --job-name=geotrain-real
#SBATCH --ntasks=7
#SBATCH --cpus-per-task=1
set -euo pipefail
CONFIG=${CONFIG:-/shared/geotrain/examples/multi-host/config.json}
srun --kill-on-bad-exit=1 bash -c 'exec geotrain real --role "$SLURM_PROCID" --config "'"$CONFIG"'"'
geotrain collect --config "$CONFIG"
