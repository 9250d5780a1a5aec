#!/usr/bin/env bash
# The multi-host recipe under Slurm for real: examples/multi-host/slurm-real.sh
# runs one `geotrain real` per srun task (7 roles of the quickstart on the
# one-node cluster, overcommitted, all on loopback), then `geotrain collect`.
# Skipped (exit 77, with the reason) without root or Debian's Slurm packages.
# usage: slurm_real_test.sh SOURCE_DIR GEOTRAIN_BINARY
set -euo pipefail
SRC=$1
BIN=$2
source "$(dirname "$0")/slurm_cluster.sh"

mkdir -p "$WORK/bin"
ln -s "$BIN" "$WORK/bin/geotrain"
export PATH=$WORK/bin:$PATH
echo "slurm-real-test-secret-0123456789" > "$WORK/secret"
chmod 600 "$WORK/secret"
BASE=$((24000 + RANDOM % 5000))
NODES=""
for i in $(seq 0 6); do
  NODES+="${NODES:+,}{\"host\": \"127.0.0.1\", \"tcp_port\": $((BASE + i)), \"udp_port\": $((BASE + i))}"
done
cat > "$WORK/config.json" <<CONFIG
{ "scenario": "$SRC/scenarios/quickstart.json",
  "sets": ["model={\"kind\":\"softmax\"}", "dataset={\"kind\":\"synthetic\"}", "stop.rounds=20"],
  "secret_file": "$WORK/secret", "out": "$WORK/out", "nodes": [$NODES] }
CONFIG

CONFIG=$WORK/config.json sbatch --wait --overcommit --output="$WORK/log/real.out" \
  "$SRC/examples/multi-host/slurm-real.sh" || { cat "$WORK/log/real.out"; echo "FAIL: the Slurm job failed"; exit 1; }
python3 - "$WORK/out/summary.json" <<'PY' || { cat "$WORK/log/real.out"; exit 1; }
import json, sys
s = json.load(open(sys.argv[1]))
assert s["runtime"] == "real" and s["rounds"] == 20 and s["worker_steps"] == 80, (s["runtime"], s["rounds"], s["worker_steps"])
PY
echo "PASS: 7 roles ran as srun tasks of one Slurm job, trained 20 rounds and were collected"
