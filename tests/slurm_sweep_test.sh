#!/usr/bin/env bash
# A sweep spread over a real one-node Slurm cluster as a job array
# (examples/sweeps/slurm-array.sh), then merged. Needs root and Debian's
# slurmctld, slurmd, slurm-client and munge (scripts/setup.sh --slurm installs
# them); otherwise it says why and exits 77, which ctest reports as skipped.
# usage: slurm_sweep_test.sh SOURCE_DIR GEOTRAIN_BINARY
set -euo pipefail
SRC=$1
BIN=$2
skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root to run slurmctld/slurmd and munged"
for b in slurmctld slurmd sbatch sinfo munged; do
  command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] || skip "$b not installed (scripts/setup.sh --slurm)"
done

WORK=$(mktemp -d /tmp/geotrain-slurm-XXXXXX)
chmod 755 "$WORK"  # munged runs as the munge user
PIDS=()
cleanup() {
  for p in "${PIDS[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  sleep 1
  rm -rf "$WORK"
}
trap cleanup EXIT

# munge: its key comes with the package; start our own daemon on a private socket.
mkdir -p "$WORK/munge"
chown munge:munge "$WORK/munge"
runuser -u munge -- /usr/sbin/munged --socket="$WORK/munge/munge.socket" --pid-file="$WORK/munge/munged.pid" \
  --log-file="$WORK/munge/munged.log" --seed-file="$WORK/munge/seed" --force
sleep 0.5
PIDS+=("$(cat "$WORK/munge/munged.pid")")

HOST=$(hostname -s)
PORT=$((20000 + RANDOM % 10000))
mkdir -p "$WORK/state" "$WORK/spool" "$WORK/log"
cat > "$WORK/slurm.conf" <<CONF
ClusterName=geotrain-test
SlurmctldHost=$HOST
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$WORK/munge/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmUser=root
SlurmdUser=root
ReturnToService=2
StateSaveLocation=$WORK/state
SlurmdSpoolDir=$WORK/spool
SlurmctldPidFile=$WORK/slurmctld.pid
SlurmdPidFile=$WORK/slurmd.pid
SlurmctldLogFile=$WORK/log/slurmctld.log
SlurmdLogFile=$WORK/log/slurmd.log
MpiDefault=none
NodeName=$HOST CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
echo "CgroupPlugin=cgroup/v1" > "$WORK/cgroup.conf"
export SLURM_CONF=$WORK/slurm.conf
/usr/sbin/slurmctld
sleep 1
PIDS+=("$(cat "$WORK/slurmctld.pid")")
/usr/sbin/slurmd
sleep 1
PIDS+=("$(cat "$WORK/slurmd.pid")")
for i in $(seq 1 30); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
sinfo -h -o %t | grep -q idle || { cat "$WORK/log/"*.log; echo "FAIL: the Slurm node never became idle"; exit 1; }

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
