#!/usr/bin/env bash
# Wall time per simulated round of one scenario under two geotrain binaries,
# run alternately (A B A B ...) so both see the same machine load; prints each
# run and the medians. Used to hold a refactoring to "time per simulated round
# unchanged within 5%" (build the old commit in a worktree for OLD).
# Usage: bench/compare_binaries.sh OLD_BINARY NEW_BINARY SCENARIO [RUNS] [--set k=v ...]
set -euo pipefail
old=$1 new=$2 scenario=$3 runs=${4:-5}
shift $(( $# >= 4 ? 4 : 3 ))
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
per_round() { python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s['wall_time_s'] / s['rounds'])" "$1/summary.json"; }
declare -a a b
for i in $(seq 1 "$runs"); do
  "$old" sim "$scenario" -q -o "$tmp/a$i" "$@" >/dev/null
  "$new" sim "$scenario" -q -o "$tmp/b$i" "$@" >/dev/null
  a+=("$(per_round "$tmp/a$i")") b+=("$(per_round "$tmp/b$i")")
  echo "run $i: old ${a[-1]} s/round, new ${b[-1]} s/round"
done
python3 - "${a[*]}" "${b[*]}" <<'PY'
import statistics, sys
a = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
ma, mb = statistics.median(a), statistics.median(b)
print(f"median wall per simulated round: old {ma * 1e3:.3f} ms, new {mb * 1e3:.3f} ms, new/old {mb / ma:.3f}")
PY
