#!/usr/bin/env bash
# A sweep spread with GNU parallel over N local or remote slots (add -S host1,host2
# for remote machines sharing OUT), then results.csv rebuilt from every shard.
#   examples/sweeps/parallel.sh examples/sweeps/arch-bandwidth.json out/sweep 4
set -euo pipefail
SWEEP=$1
OUT=$2
N=${3:-2}
seq 0 $((N - 1)) | parallel -j "$N" geotrain sweep "$SWEEP" --out "$OUT" -q --shard {}/"$N"
geotrain sweep "$SWEEP" --out "$OUT" -q
