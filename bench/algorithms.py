#!/usr/bin/env python3
"""Every algorithm's metric, distributed against one worker: the table in docs/algorithms.md.

For each shipped scenarios/algo-<name>.json it runs
  sim     the scenario as shipped (2 DCs x 2 workers, bsp) in the simulator,
  launch  the same scenario as real processes on this machine (geotrain launch),
  single  one worker on the same samples: topologies/single.json, batch = the 4 workers' global batch,
and prints a Markdown table of the primary metric with the relative differences to the single worker.

Usage: bench/algorithms.py [--out DIR] [--only a,b] [--skip-launch] [--seeds 1,2,3] [--set KEY=VALUE ...]
(--set applies to every run, e.g. --set stop.rounds=100 for a quick look.)
"""
import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEOTRAIN = os.path.join(ROOT, "build", "geotrain")
ALGOS = ["logreg", "cnn", "rnn", "autoencoder", "mf", "gan", "a2c", "ranknet", "listnet", "kmeans"]


def run(args, log):
    t = time.time()
    with open(log, "w") as f:
        r = subprocess.run([GEOTRAIN] + args, stdout=f, stderr=subprocess.STDOUT)
    return r.returncode, time.time() - t


def primary(summary_path):
    s = json.load(open(summary_path))
    m = s["metrics"]
    return m["primary"], m["values"][m["primary"]]["final"], m["values"][m["primary"]]["higher_is_better"], s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="out/algorithms")
    ap.add_argument("--only", default="")
    ap.add_argument("--skip-launch", action="store_true")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--set", action="append", default=[])
    a = ap.parse_args()
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
                os.makedirs(out, exist_ok=True)
                code, wall = run(args + ["--out", out] + setargs, os.path.join(out, "log.txt"))
                try:
                    metric, value, higher, _ = primary(os.path.join(out, "summary.json"))
                except (OSError, KeyError, ValueError):
                    metric, value, higher = "?", None, True
                res[mode] = (value, code, wall)
                print(f"{name} seed {seed} {mode}: {metric} {value} (exit {code}, {wall:.0f} s)", file=sys.stderr)
            rows.append((name, seed, metric, res))

    def rel(x, ref):
        return "" if x is None or ref in (None, 0) else f"{100 * (x - ref) / abs(ref):+.2f}%"

    def val(v):
        return "failed" if v[0] is None else f"{v[0]:.4f}" + ("" if v[1] == 0 else f" (exit {v[1]})")

    print("| algorithm | seed | metric | ns-3, 2 DCs x 2 workers | launch | one worker | ns-3 vs one | launch vs one |")
    print("|---|---|---|---|---|---|---|---|")
    for name, seed, metric, res in rows:
        single = res["single"][0]
        launch = res.get("launch", (None, -1, 0))
        print(f"| {name} | {seed} | {metric} | {val(res['sim'])} | {val(launch) if 'launch' in res else 'not run'} | "
              f"{val(res['single'])} | {rel(res['sim'][0], single)} | {rel(launch[0], single)} |")


if __name__ == "__main__":
    main()
