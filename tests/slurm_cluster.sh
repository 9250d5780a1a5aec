# Sourced by the Slurm tests: starts a real one-node Slurm cluster (munge,
# slurmctld, slurmd) with a private config, state and ports under a fresh
# WORK directory, exports SLURM_CONF, and tears it all down on exit. Without
# root or the packages (scripts/setup.sh --slurm) it says why and exits 77,
# which ctest reports as skipped.
skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(id -u)" -eq 0 ] || skip "needs root to run slurmctld/slurmd and munged"
for b in slurmctld slurmd sbatch sinfo munged; do
  command -v "$b" >/dev/null || [ -x "/usr/sbin/$b" ] || skip "$b not installed (scripts/setup.sh --slurm)"
done

WORK=$(mktemp -d /tmp/geotrain-slurm-XXXXXX)
chmod 755 "$WORK"  # munged runs as the munge user
PIDS=()
cleanup() {
  local rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ]; then  # a failure says why: every log the cluster and the jobs wrote
    echo "exit $rc; logs under $WORK:"
    for f in "$WORK"/log/* "$WORK"/*.txt; do [ -f "$f" ] && { echo "== $f"; tail -n 40 "$f"; }; done
  fi
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
