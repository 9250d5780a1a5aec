#!/usr/bin/env bash
# Builds the fuzz targets (tests/fuzz, clang + libFuzzer + ASan + UBSan) into
# build-fuzz/ and runs each for SECONDS (default 60), two at a time.
# usage: scripts/fuzz.sh [SECONDS] [target ...]   targets: frame wire datagram json codec dgt formats
# Seeds come from tests/fuzz/seeds/<target>/; new corpus entries go to
# build-fuzz/corpus/<target>/. JOBS (default: the core count) targets run at
# once. Exit 1 on any finding (the crashing input is
# saved as build-fuzz/<target>-crash-*), and each run's last status line (execs)
# is printed. FUZZ_OPT (default 1) is the build's optimisation level.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_EACH=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(frame wire datagram json codec dgt formats)
B=${FUZZ_BUILD:-build-fuzz}  # where the targets, corpora and findings go
if ! command -v clang++ >/dev/null || ! compgen -G "/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
  echo "fuzz: skipped: clang++ with libFuzzer is not installed (scripts/setup.sh installs clang and libclang-rt-14-dev)"
  exit 77
fi
CXX=clang++ cmake -S tests/fuzz -B "$B" -DCMAKE_BUILD_TYPE= -DFUZZ_OPT="${FUZZ_OPT:-1}" >/dev/null
cmake --build "$B" -j"$(nproc)" >/dev/null
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
run() {
  local t=$1
  mkdir -p "$B/corpus/$t"
  local seeds=()
  [ -d "tests/fuzz/seeds/$t" ] && seeds=("tests/fuzz/seeds/$t")
  [ "$t" = json ] && seeds+=(scenarios topologies examples/sweeps)  # the shipped JSON files
  if "$B/${t}_fuzz" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 \
      -artifact_prefix="$B/$t-" "$B/corpus/$t" "${seeds[@]}" > "$B/$t.log" 2>&1; then
    echo "fuzz $t: no finding in ${SECONDS_EACH} s: $(grep -E '^#[0-9]+' "$B/$t.log" | tail -1)"
  else
    echo "fuzz $t: FINDING (see $B/$t.log)"
    tail -40 "$B/$t.log"
    return 1
  fi
}
status=0
pids=()
for t in "${TARGETS[@]}"; do
  run "$t" & pids+=($!)
  if [ ${#pids[@]} -ge "${JOBS:-$(nproc)}" ]; then wait "${pids[0]}" || status=1; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || status=1; done
exit $status
