#!/usr/bin/env bash
# Trains the two pre-trained CNNs the incremental learners start from and
# writes them to models/: fmnist-cnn-classes0-4.bin (feature_extraction's base:
# classes 0-4 only) and fmnist-cnn-first-half.bin (fine_tuning's base: the
# first 30,000 training samples). The shipped files were made by this script;
# rerun it only to change them (the incremental learners' figures then change).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/geotrain ] || scripts/build.sh
for base in classes0-4 first-half; do
  out=$(mktemp -d)
  build/geotrain sim "scenarios/pretrain-cnn-$base.json" -q --out "$out" --save-model "models/fmnist-cnn-$base.bin"
  echo "wrote models/fmnist-cnn-$base.bin ($(grep -o '"final_test_accuracy": [0-9.]*' "$out/summary.json"))"
  rm -rf "$out"
done
