#!/usr/bin/env bash
# The quickstart (shortened) with AVX, AVX2, FMA and AVX-512 hidden from glibc
# (as on an older x86-64 CPU: glibc then picks its baseline exp/log/pow) gives
# the same summary.json, bit for bit apart from wall time, as the normal run.
# usage: glibc_tunables_test.sh SOURCE_DIR GEOTRAIN
set -euo pipefail
src=$1 bin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mask="glibc.cpu.hwcaps=-AVX,-AVX2,-FMA,-FMA4,-AVX512F"
sets=(--set stop.rounds=150 --set eval.every_rounds=50)
"$bin" sim "$src/scenarios/quickstart.json" --out "$work/normal" -q "${sets[@]}"
GLIBC_TUNABLES=$mask "$bin" sim "$src/scenarios/quickstart.json" --out "$work/masked" -q "${sets[@]}"
ld=/lib64/ld-linux-x86-64.so.2
if [ -x "$ld" ] && "$ld" --list-diagnostics >/dev/null 2>&1; then
  if diff -q <("$ld" --list-diagnostics | grep '^x86.*active') \
             <(GLIBC_TUNABLES=$mask "$ld" --list-diagnostics | grep '^x86.*active') >/dev/null; then
    echo "note: this CPU has none of AVX, AVX2, FMA, AVX-512: both runs used glibc's baseline code"
  else
    echo "glibc saw fewer CPU features in the masked run"
  fi
fi
/usr/bin/python3 - "$work/normal/summary.json" "$work/masked/summary.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for s in (a, b):
    s.pop("wall_time_s", None)
diff = [k for k in set(a) | set(b) if a.get(k) != b.get(k)]
if diff:
    sys.exit("summaries differ in: " + ", ".join(sorted(diff)))
print("summary.json identical with and without AVX/AVX2/FMA/AVX-512 (accuracy %s)" % a["final_test_accuracy"])
PY
