#!/usr/bin/env python3
"""CoCoA+'s local work against WAN rounds: the table in docs/algorithms.md.

Runs scenarios/algo-svm.json (linear SVM on Fashion-MNIST, 2 DCs x 2 workers, bsp) with 0.5, 1 and 4 SDCA
passes over each worker's shard per round, evaluating every round, until the duality gap reaches the target
(or --rounds), and prints the WAN rounds, simulated time, WAN bytes and test accuracy at that point.

Usage: bench/cocoa_rounds.py [--out DIR] [--gap 1e-3] [--rounds 300] [--passes 0.5,1,4]
"""
import argparse
import csv
import os
import subprocess

import binaries  # bench/binaries.py: where the binaries are

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="out/cocoa")
    ap.add_argument("--gap", type=float, default=1e-3)
    ap.add_argument("--rounds", type=int, default=300)
    ap.add_argument("--passes", default="0.5,1,4")
    a = ap.parse_args()
    geotrain = binaries.require_geotrain_from_env()
    print(f"| SDCA passes per round | WAN rounds to a duality gap of {a.gap:g} | simulated s | WAN MB | test accuracy |")
    print("|---|---|---|---|---|")
    for passes in a.passes.split(","):
        out = os.path.join(a.out, f"passes-{passes}")
        os.makedirs(out, exist_ok=True)
        subprocess.run([geotrain, "sim", os.path.join(ROOT, "scenarios", "algo-svm.json"), "-q", "--out", out,
                        "--set", f"model.passes={passes}", "--set", "eval.every_rounds=1",
                        "--set", f'stop={{"rounds":{a.rounds},"target":{{"metric":"duality_gap","value":{a.gap}}},"stop_at_target":true}}'],
                       check=True)
        hit = None
        with open(os.path.join(out, "timeline.csv")) as f:
            for row in csv.DictReader(f):
                gap = float(row["duality_gap"]) if row["duality_gap"] not in ("", "nan") else float("nan")
                if gap <= a.gap:
                    hit = row
                    break
        if hit is None:
            print(f"| {passes} | not within {a.rounds} | | | |")
        else:
            print(f"| {passes} | {hit['round']} | {float(hit['time_s']):.1f} | {int(hit['wan_bytes']) / 1e6:.2f} | "
                  f"{float(hit['test_accuracy']):.4f} |")


if __name__ == "__main__":
    main()
