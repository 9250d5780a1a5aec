#!/usr/bin/env bash
# Trains the classifier whose hidden layer is the feature space of the GAN's
# metrics (Frechet distance, inception-style score) and writes it to
# models/fmnist-features.bin, the file the gan learner reads by default.
# The shipped file was made by this script; rerun it only to change the
# classifier (the GAN's metrics then change scale).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/geotrain ] || scripts/build.sh
out=$(mktemp -d)
build/geotrain sim scenarios/gan-feature-classifier.json --out "$out" --save-model models/fmnist-features.bin
echo "wrote models/fmnist-features.bin ($(grep -o '"final_test_accuracy": [0-9.]*' "$out/summary.json"))"
rm -rf "$out"
