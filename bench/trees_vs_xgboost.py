#!/usr/bin/python3
"""The XGBoost-style learner on one worker against XGBoost's `hist` method, one thread, same data, bins,
depth, trees.

geotrain: `geotrain sim scenarios/algo-xgboost.json` on topologies/single.json (one worker holding all
60,000 Fashion-MNIST training images), the flow network model, one evaluation at the end; its wall time
includes loading the data set, binning, growing every tree and that evaluation. XGBoost (Debian's
python3-xgboost, used only here): tree_method=hist, the same max_bin, max_depth, eta, lambda,
min_child_weight and number of rounds, multi:softprob, nthread=1; its time is DMatrix construction plus
xgb.train. Both run here, one after the other, and the ratios are printed.

Usage: bench/trees_vs_xgboost.py [--bins 32] [--depth 6] [--rounds 100] [--eta 0.3]
       (Debian's python3 with python3-numpy and python3-xgboost; needs build/geotrain)
"""
import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile
import time

import binaries  # bench/binaries.py: where the binaries are

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FMNIST = "/usr/share/datasets/fashion-mnist"


def geotrain(args):
    binary = binaries.require_geotrain_from_env()
    with tempfile.TemporaryDirectory() as out:
        model = {"kind": "xgboost", "bins": args.bins, "depth": args.depth, "iterations": args.rounds, "eta": args.eta}
        cmd = [binary, "sim", os.path.join(ROOT, "scenarios", "algo-xgboost.json"), "-q", "-o", out,
               "--set", "model=" + json.dumps(model), "--set", "topology=../topologies/single.json",
               "--set", 'network={"model":"flow"}', "--set", "eval.every_rounds=1000000"]
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        wall = time.perf_counter() - t0
        s = json.load(open(os.path.join(out, "summary.json")))
    return s["metrics"]["values"]["test_accuracy"]["final"], wall


def idx(name):
    import numpy as np
    with gzip.open(os.path.join(FMNIST, name)) as f:
        data = f.read()
    if "labels" in name:
        return np.frombuffer(data, dtype=np.uint8, offset=8).astype(np.int32)
    return np.frombuffer(data, dtype=np.uint8, offset=16).reshape(-1, 784).astype(np.float32) / 255.0


def xgboost(args):
    try:
        import xgboost as xgb
    except ImportError:
        return None, None, None
    xtr, ytr, xte, yte = (idx("train-images-idx3-ubyte.gz"), idx("train-labels-idx1-ubyte.gz"),
                          idx("t10k-images-idx3-ubyte.gz"), idx("t10k-labels-idx1-ubyte.gz"))
    params = {"tree_method": "hist", "max_bin": args.bins, "max_depth": args.depth, "eta": args.eta, "lambda": 1.0,
              "min_child_weight": 1.0, "objective": "multi:softprob", "num_class": 10, "nthread": 1, "seed": 1}
    t0 = time.perf_counter()
    dtrain = xgb.DMatrix(xtr, label=ytr, nthread=1)
    booster = xgb.train(params, dtrain, num_boost_round=args.rounds)
    seconds = time.perf_counter() - t0
    pred = booster.predict(xgb.DMatrix(xte, nthread=1)).argmax(axis=1)
    return float((pred == yte).mean()), seconds, xgb.__version__


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bins", type=int, default=32)
    p.add_argument("--depth", type=int, default=6)
    p.add_argument("--rounds", type=int, default=100)
    p.add_argument("--eta", type=float, default=0.3)
    args = p.parse_args()
    print(f"Fashion-MNIST, {args.rounds} iterations x 10 trees, depth {args.depth}, {args.bins} bins, eta {args.eta}, "
          "one thread")
    acc, wall = geotrain(args)
    print(f"geotrain xgboost (one worker): test accuracy {acc:.4f}, {wall:.1f} s")
    xacc, xs, version = xgboost(args)
    if xacc is None:
        print("XGBoost: not installed (apt install python3-xgboost to compare)")
        return 0
    print(f"XGBoost {version} hist:        test accuracy {xacc:.4f}, {xs:.1f} s")
    print(f"accuracy difference {acc - xacc:+.4f}; time ratio geotrain / XGBoost {wall / xs:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
