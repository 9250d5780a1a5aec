#!/usr/bin/python3
"""The simulator's cost curve: wall time and peak memory of `geotrain sim`
against DCs, workers per DC, rounds and model size, for both network models
(network.model = flow | ns3), each point in its own process (peak memory is
the process's, from wait4).

Usage: bench/cost_curve.py [--geotrain build/geotrain] [--out docs] [--quick] [--repeat N] [--axis AXIS]
Writes OUT/cost-curve.csv and OUT/cost-curve.png, and prints per axis how
wall time grows (a least-squares line, and R^2). The flow model's grid goes
to 1,024 DCs x 16 workers (the DC axis) and 8 DCs x 32 workers; ns-3's stays small (it moves every packet: about a
second per simulated gigabyte here). --quick runs a smaller grid; --repeat N runs the grid N times
and keeps each point's median wall time (one run of a point varies by 10-15% on a shared VM, which
is as much as the curvature it is meant to show, and by up to 1.8x in a slow spell), and prints each
doubling's step by the medians, by each point's fastest run, by median CPU time, and paired: the
geometric mean over the repetitions of each repetition's own step (its two runs ran one after the
other, so a slow spell longer than both cancels), with a 95% interval; and the exponent b of
wall = a * flows^b fitted to the medians (1 is linear). --axis keeps one axis.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import binaries  # bench/binaries.py: where the binaries are

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "analysis"))
from claims import interval  # noqa: E402  (mean and 95% interval, one definition for every report)
BASE = os.path.join(ROOT, "scenarios", "scale-8x8-resnet50.json")
PROFILE_MB = {"softmax-fashion": 0.03, "mlp-quickstart": 0.41, "resnet50": 102.2, "bert-base": 437.9, "vgg16": 553.4}


def topology(dcs, workers):
    return {"name": f"cost-{dcs}x{workers}", "lan": {"bandwidth_mbps": 10000, "latency_ms": 0.05},
            "dcs": [{"name": f"dc-{i}", "workers": workers, "worker_gflops": 15000} for i in range(dcs)],
            "global_server_dc": "dc-0", "wan": {"default": {"bandwidth_mbps": 1000, "latency_ms": 25}}}


def run(geotrain, model, dcs, workers, rounds, profile):
    with tempfile.TemporaryDirectory() as out:
        sets = [f"topology={json.dumps(topology(dcs, workers))}", f"model.profile={profile}",
                f"stop.rounds={rounds}", f"network.model={model}", "eval.every_rounds=1000000",
                f"dataset.train={max(4096, dcs * workers * 32)}"]
        cmd = [geotrain, "sim", "-q", "-o", out, BASE] + [a for s in sets for a in ("--set", s)]
        p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(p.pid, 0)
        if status != 0:
            sys.exit(f"failed: {' '.join(cmd)}\n{p.stderr.read().decode()}")
        s = json.load(open(os.path.join(out, "summary.json")))
    return {"model": model, "dcs": dcs, "workers_per_dc": workers, "rounds": rounds, "profile": profile,
            "model_mb": PROFILE_MB[profile], "flows": dcs * workers + dcs, "wall_s": s["wall_time_s"],
            "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mb": usage.ru_maxrss / 1024, "events": s["events"], "sim_s_per_round": s["time_per_round_s"]}


def grid(quick):
    # (axis, model, dcs, workers, rounds, profile); the first entry of each axis is its base.
    g = []
    f_dcs = [8, 16, 32, 64, 128, 256, 512, 1024] if not quick else [8, 64, 512]
    f_workers = [2, 4, 8, 16, 32] if not quick else [2, 8, 32]
    f_rounds = [25, 50, 100, 200, 400] if not quick else [25, 100, 400]
    for d in f_dcs:
        g.append(("dcs", "flow", d, 16, 100, "resnet50"))
    for w in f_workers:
        g.append(("workers", "flow", 8, w, 100, "resnet50"))
    for r in f_rounds:
        g.append(("rounds", "flow", 8, 8, r, "resnet50"))
    for p in ["softmax-fashion", "mlp-quickstart", "resnet50", "bert-base", "vgg16"]:
        g.append(("model", "flow", 8, 8, 100, p))
    for d in [2, 4, 8] if not quick else [2, 8]:
        g.append(("dcs", "ns3", d, 4, 10, "mlp-quickstart"))
    for w in [2, 4, 8] if not quick else [2, 8]:
        g.append(("workers", "ns3", 4, w, 10, "mlp-quickstart"))
    for r in [5, 10, 20] if not quick else [5, 20]:
        g.append(("rounds", "ns3", 4, 4, r, "mlp-quickstart"))
    for p in ["softmax-fashion", "mlp-quickstart", "resnet50"]:
        g.append(("model", "ns3", 2, 2, 3, p))
    return g


def fit(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    ss = sum((y - my) ** 2 for y in ys)
    res = sum((y - (my + slope * (x - mx))) ** 2 for x, y in zip(xs, ys))
    return slope, (1 - res / ss) if ss else 1.0


def paired_steps(points, runs, model, axis):
    """[(to, [each repetition's wall-time ratio of this point to the one before it])], in axis order."""
    idx = sorted((i for i, pt in enumerate(points) if pt[1] == model and pt[0] == axis),
                 key=lambda i: points[i][2] * points[i][3])
    return [(points[j][2] if axis == "dcs" else points[j][3],
             [b["wall_s"] / a["wall_s"] for a, b in zip(runs[i], runs[j])]) for i, j in zip(idx, idx[1:])]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--geotrain", default=binaries.GEOTRAIN)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeat", type=int, default=1,
                    help="runs per point, the whole grid once per repetition; a point's wall time is their median")
    ap.add_argument("--axis", default="", help="only this axis (dcs, workers, rounds or model)")
    a = ap.parse_args()
    binaries.require(a.geotrain, "--geotrain")
    points = [pt for pt in grid(a.quick) if not a.axis or pt[0] == a.axis]
    runs = [[] for _ in points]
    for rep in range(a.repeat):
        for i, (axis, model, d, w, r, p) in enumerate(points):
            row = dict(axis=axis, **run(a.geotrain, model, d, w, r, p))
            runs[i].append(row)
            print(f"[{rep + 1}/{a.repeat}: {i + 1}/{len(points)}] {model:4s} {axis:7s} {d:4d} DCs x {w:2d} workers, "
                  f"{r:3d} rounds, {p:15s}: {row['wall_s']:8.3f} s wall, {row['peak_mb']:6.1f} MB peak", flush=True)
    rows = []
    for rs in runs:  # the median wall time (and CPU time), the fastest run, the largest peak
        row = dict(sorted(rs, key=lambda x: x["wall_s"])[len(rs) // 2])
        row["cpu_s"] = sorted(x["cpu_s"] for x in rs)[len(rs) // 2]
        row["fastest_wall_s"] = min(x["wall_s"] for x in rs)
        row["peak_mb"] = max(x["peak_mb"] for x in rs)
        row["repeats"] = len(rs)
        rows.append(row)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "cost-curve.csv"), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        wr.writeheader()
        wr.writerows(rows)
    xkey = {"dcs": "flows", "workers": "flows", "rounds": "rounds", "model": "model_mb"}
    for model in ["flow", "ns3"]:
        for axis in ["dcs", "workers", "rounds", "model"]:
            pts = [r for r in rows if r["model"] == model and r["axis"] == axis]
            if not pts:
                continue
            xs, ys = [r[xkey[axis]] for r in pts], [r["wall_s"] for r in pts]
            slope, r2 = fit(xs, ys)
            print(f"{model:4s} wall time vs {xkey[axis]:8s} ({axis}): {slope:.3g} s per unit, R^2 {r2:.3f}; "
                  f"wall {min(ys):.3f}-{max(ys):.3f} s; peak {min(r['peak_mb'] for r in pts):.0f}-"
                  f"{max(r['peak_mb'] for r in pts):.0f} MB")
            if axis in ("dcs", "workers") and len(pts) > 1:  # each doubling's cost: linear is 2x
                pts = sorted(pts, key=lambda r: r[xkey[axis]])
                # By the medians, by each point's fastest run and by CPU time (user + system, all
                # threads): a shared VM's slow spells move wall time most.
                for key in ["wall_s", "fastest_wall_s", "cpu_s"]:
                    steps = [(b[axis if axis == "dcs" else "workers_per_dc"], b[key] / a[key])
                             for a, b in zip(pts, pts[1:])]
                    worst = max(steps, key=lambda t: t[1])
                    print(f"     largest step by {key:14s}: {worst[1]:.2f}x going to {worst[0]} "
                          f"({'DCs' if axis == 'dcs' else 'workers per DC'}); steps "
                          + ", ".join(f"{t[1]:.2f}" for t in steps))
                paired = paired_steps(points, runs, model, axis)
                if paired and len(paired[0][1]) > 1:
                    print("     paired steps (geometric mean, 95% interval): " + ", ".join(
                        f"{math.exp(m):.2f} [{math.exp(m - h):.2f}-{math.exp(m + h):.2f}]"
                        for m, h in (interval([math.log(x) for x in xs]) for _, xs in paired)))
                b, _ = fit([math.log(r[xkey[axis]]) for r in pts], [math.log(r["wall_s"]) for r in pts])
                print(f"     wall time grows as {xkey[axis]}^{b:.3f} (medians, least squares on logs)")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 4, figsize=(16, 3.6))
    labels = {"dcs": "flows (DCs x 16 workers + DCs)", "workers": "flows (8 DCs x workers + 8)", "rounds": "rounds",
              "model": "model size (MB)"}
    for ax, axis in zip(axes, ["dcs", "workers", "rounds", "model"]):
        for model, style in [("flow", "o-"), ("ns3", "s--")]:
            pts = sorted((r for r in rows if r["model"] == model and r["axis"] == axis), key=lambda r: r[xkey[axis]])
            if not pts:
                continue
            what = f"{pts[0]['dcs']} DCs x {pts[0]['workers_per_dc']}, {pts[0]['rounds']} rounds"
            if axis in ("dcs", "workers", "rounds"):
                what = pts[0]["profile"]
            ax.plot([r[xkey[axis]] for r in pts], [r["wall_s"] for r in pts], style, label=f"{model} ({what})")
        ax.set_xlabel(labels[axis])
        ax.set_ylabel("wall time (s)")
        ax.set_yscale("log")
        if axis == "model":
            ax.set_xscale("log")
        ax.grid(True, alpha=0.3)
        if ax.get_lines():  # an axis left out by --axis has none
            ax.legend(fontsize=8)
    fig.suptitle("geotrain sim: wall time against scale (each point one process; the grid is in docs/cost-curve.csv)")
    fig.tight_layout()
    fig.savefig(os.path.join(a.out, "cost-curve.png"), dpi=110)
    print(f"wrote {a.out}/cost-curve.csv and cost-curve.png")


if __name__ == "__main__":
    main()
