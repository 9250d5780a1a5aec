#!/usr/bin/env python3
"""Every algorithm's metric, distributed against one worker: the table in docs/algorithms.md.

For each shipped scenarios/algo-<name>.json it runs
  sim     the scenario as shipped (2 DCs x 2 workers, bsp) in the simulator,
  launch  the same scenario as real processes on this machine (geotrain launch),
  single  one worker on the same samples: topologies/single.json, batch = the 4 workers' global batch,
and prints a Markdown table of the primary metric, final and as the mean of the last three evaluations
(one evaluation can be noisy: at a constant rate a CNN's test accuracy moved by +-0.5% between
evaluations 250 rounds apart), with the relative differences to the single worker.

Usage: bench/algorithms.py [--out DIR] [--only a,b] [--skip-launch] [--seeds 1,2,3] [--set KEY=VALUE ...]
                           [--table-only]   (the table from the runs already in DIR)
(--set applies to every run, e.g. --set stop.rounds=100 for a quick look.)
"""
import argparse
import json
import os
import subprocess
import sys
import time

import binaries  # bench/binaries.py: where the binaries are

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "analysis"))
from claims import interval  # noqa: E402  (mean and 95% interval, one definition for every report)

GEOTRAIN = binaries.GEOTRAIN_FROM_ENV  # GEOTRAIN_BIN: another build
ALGOS = ["logreg", "cnn", "rnn", "autoencoder", "mf", "gan", "a2c", "ranknet", "listnet", "kmeans", "knn", "ftrl", "ftml", "gbdt",
         "xgboost", "random_forest", "lambdamart", "gbrank", "rankboost", "adarank", "svm", "svr", "ranksvm"]


def run(args, log):
    t = time.time()
    with open(log, "w") as f:
        r = subprocess.run([GEOTRAIN] + args, stdout=f, stderr=subprocess.STDOUT)
    return r.returncode, time.time() - t


def primary(run_dir):
    """The primary metric's name, final value, and mean over the last three evaluations."""
    s = json.load(open(os.path.join(run_dir, "summary.json")))
    name = s["metrics"]["primary"]
    with open(os.path.join(run_dir, "timeline.csv")) as f:
        header = f.readline().strip().split(",")
        col = header.index(name)
        values = [float(line.split(",")[col]) for line in f if line.strip()]
    tail = values[-3:]
    return name, s["metrics"]["values"][name]["final"], sum(tail) / len(tail) if tail else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="out/algorithms")
    ap.add_argument("--only", default="")
    ap.add_argument("--skip-launch", action="store_true")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--set", action="append", default=[])
    ap.add_argument("--table-only", action="store_true")
    a = ap.parse_args()
    if not a.table_only:
        binaries.require_geotrain_from_env()
    algos = [x for x in a.only.split(",") if x] or ALGOS
    rows = []
    for name in algos:
        scenario = os.path.join(ROOT, "scenarios", f"algo-{name}.json")
        sc = json.load(open(scenario))
        batch = sc.get("batch_size", 32)
        for seed in [int(s) for s in a.seeds.split(",")]:
            sets = [f"seed={seed}"] + a.set
            setargs = sum((["--set", s] for s in sets), [])
            res = {}
            modes = [("sim", ["sim", scenario, "-q"]),
                     ("single", ["sim", scenario, "-q", "--set", "topology=../topologies/single.json",
                                 "--set", f"batch_size={4 * batch}"])]
            if not a.skip_launch:
                modes.insert(1, ("launch", ["launch", scenario]))
            for mode, args in modes:
                out = os.path.join(a.out, f"{name}-s{seed}", mode)
                if a.table_only and not os.path.isdir(out):
                    continue
                os.makedirs(out, exist_ok=True)
                code, wall = (0, 0.0) if a.table_only else run(args + ["--out", out] + setargs,
                                                                   os.path.join(out, "log.txt"))
                try:
                    metric, value, last3 = primary(out)
                except (OSError, KeyError, ValueError):
                    metric, value, last3 = "?", None, None
                res[mode] = (value, code, wall, last3)
                print(f"{name} seed {seed} {mode}: {metric} {value} (exit {code}, {wall:.0f} s)", file=sys.stderr)
            rows.append((name, seed, metric, res))

    def rel(x, ref):
        p = pct(x, ref)
        return "" if p is None else f"{p:+.2f}%"

    def num(x):
        return f"{x:.4f}" if abs(x) >= 0.1 else f"{x:.4g}"  # four significant digits: an MSE of 0.01126, not 0.0113

    def val(v):
        if v is None:
            return "not run"
        return "failed" if v[0] is None else f"{num(v[0])} ({num(v[3])})" + ("" if v[1] == 0 else f" exit {v[1]}")

    print("| algorithm | seed | metric: final (mean of the last 3) | simulated, 2 DCs x 2 workers | launch | one worker | "
          "simulated vs one: final (last 3) | launch vs one: final (last 3) |")
    print("|---|---|---|---|---|---|---|---|")
    none = (None, -1, 0, None)
    for name, seed, metric, res in rows:
        sim, launch, single = res.get("sim", none), res.get("launch"), res.get("single", none)
        other = launch or none
        print(f"| {name} | {seed} | {metric} | {val(res.get('sim'))} | {val(launch)} | {val(res.get('single'))} | "
              f"{rel(sim[0], single[0])} ({rel(sim[3], single[3])}) | "
              f"{rel(other[0], single[0])} ({rel(other[3], single[3])}) |")
    summary_over_seeds(rows)


def pct(x, ref):
    """x's difference to ref in per cent of ref; None when either is missing."""
    return None if x is None or ref in (None, 0) else 100 * (x - ref) / abs(ref)


def summary_over_seeds(rows):
    """Per algorithm run on two seeds or more: the simulated deployment's difference to one worker
    as a mean over the seeds with its 95% interval (t), final and last three, so a claim of "within
    1%" is judged on the interval rather than on one seed."""
    by_algo = {}
    for name, _seed, _metric, res in rows:
        sim, single = res.get("sim"), res.get("single")
        if sim and single and sim[0] is not None and single[0] is not None:
            by_algo.setdefault(name, []).append((pct(sim[0], single[0]), pct(sim[3], single[3])))
    lines = []
    for name, diffs in by_algo.items():
        if len(diffs) < 2:
            continue
        cells = []
        for xs in ([d[0] for d in diffs], [d[1] for d in diffs if d[1] is not None]):
            m, h = interval(xs) if len(xs) >= 2 else (None, None)
            cells.append("" if h is None else f"{m:+.2f}% +- {h:.2f}%")
        lines.append(f"| {name} | {len(diffs)} | {cells[0]} | {cells[1]} |")
    if lines:
        print("\n| algorithm | seeds | simulated vs one worker, final: mean +- 95% | last three: mean +- 95% |")
        print("|---|---|---|---|")
        print("\n".join(lines))


if __name__ == "__main__":
    main()
