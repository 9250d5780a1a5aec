#!/usr/bin/env python3
"""The headline rows (scenarios/headline/) over seeds: time to the target accuracy, final accuracy
and WAN bytes per row, as means with 95% intervals, and each row's speed-up over flat PS bsp and its
time against the one-data-centre row.

Usage: bench/headline.py [--out DIR] [--seeds 1,2,3,4,5] [-j 2] [--table-only]
       bench/headline.py --launch [--out DIR] [--target 0.7]
It runs `geotrain sweep examples/sweeps/headline.json` with the seeds given (resuming: finished
points are kept), then prints a Markdown table; `geotrain report DIR` draws every row's accuracy
against time on one plot.
       bench/headline.py --equal-samples [--out DIR] [--seeds 1,2,3,4,5] [--rounds 1400] [-j 2]
                         [--row full-stack] [--set KEY=VALUE ...]
--equal-samples: flat bsp and the full stack trained well past the target, to the same samples:
flat bsp ROUNDS rounds (24 workers x 32 samples each; in the flow model, which gives bsp the same
path as ns-3), the full stack in ns-3 until it has computed more; prints each seed's test
accuracy of both at flat bsp's final samples (linear between evaluations) and the mean difference
with its 95% interval. --row compares another row of scenarios/headline/ instead of the full
stack (hips-nbsync: without the codec), and --set changes that row, e.g. --set
compression.wan_push.kind=bsc (use another --out for each variant: finished runs are kept).
--launch: three rows (flat-bsp, hips-bsp, full-stack), seed 1, to a lower target, each in
simulation and as real processes (`geotrain launch`, the WAN emulated by relays), one after the
other; prints both times to target, so the rows' order can be compared across runtimes.
"""
import argparse
import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile

import binaries  # bench/binaries.py: where the binaries are

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GEOTRAIN = binaries.GEOTRAIN_FROM_ENV  # GEOTRAIN_BIN: another build
SWEEP = os.path.join(ROOT, "examples", "sweeps", "headline.json")
sys.path.insert(0, os.path.join(ROOT, "analysis"))
from claims import interval  # noqa: E402  (mean and 95% interval, one definition for every report)


def fmt(mh, digits):
    m, h = mh
    return f"{m:.{digits}f}" if h is None else f"{m:.{digits}f} +- {h:.{digits}f}"


def row_names():
    with open(SWEEP) as f:
        sw = json.load(f)
    names = []
    for arch, policy, comp, sched, topo in zip(*(sw["zip"][k] for k in
                                                 ("architecture", "policy", "compression", "schedule", "topology"))):
        if "one-dc" in topo:
            names.append("one-dc")
        elif arch == "flat":
            names.append("flat-bsp")
        elif policy["kind"] != "bsp" and comp:
            names.append("full-stack")
        elif policy["kind"] != "bsp":
            names.append("hips-" + policy["kind"])
        elif comp:
            names.append("hips-" + comp["wan_push"]["kind"])
        elif sched:
            names.append("hips-" + sched["wan"]["kind"])
        else:
            names.append("hips-bsp")
    return names


LAUNCH_ROWS = ("flat-bsp", "hips-bsp", "full-stack")


def launch_rows(out, target):
    """Each of LAUNCH_ROWS in sim and launch to `target`; a Markdown table of the times."""
    sets = ["--set", f"stop.target_accuracy={target}", "--set", "stop.sim_time_s=600"]
    times = {}
    for row in LAUNCH_ROWS:
        scenario = os.path.join(ROOT, "scenarios", "headline", row + ".json")
        for runtime in ("sim", "launch"):
            d = os.path.join(out, f"{row}-{runtime}")
            r = subprocess.run([GEOTRAIN, runtime, scenario, "--out", d, "-q"] + sets)
            if r.returncode != 0:
                sys.exit(f"error: {runtime} {row} failed (exit {r.returncode})")
            with open(os.path.join(d, "summary.json")) as f:
                s = json.load(f)
            times[(row, runtime)] = (s["time_to_target_s"], s["wall_time_s"])
            print(f"{row} {runtime}: time to {target} {s['time_to_target_s']} s (wall {s['wall_time_s']:.0f} s)",
                  file=sys.stderr, flush=True)
    print(f"| row | sim: time to {target} (s) | launch: time to {target} (s, elapsed) |")
    print("|---|---|---|")
    for row in LAUNCH_ROWS:
        print(f"| {row} | " + " | ".join("-" if times[(row, rt)][0] is None else f"{times[(row, rt)][0]:.1f}"
                                        for rt in ("sim", "launch")) + " |")
    for rt in ("sim", "launch"):
        order = sorted(LAUNCH_ROWS, key=lambda r: times[(r, rt)][0] if times[(r, rt)][0] is not None else 1e300)
        print(f"\n{rt} order, fastest first: {', '.join(order)}")


def equal_samples(out, seeds, rounds, jobs, row, row_sets):
    """Flat bsp for `rounds` rounds and `row` (a row name of scenarios/headline/, changed by `row_sets`)
    past as many samples, per seed; a Markdown table of both rows' accuracy at flat bsp's final
    samples."""
    from concurrent.futures import ThreadPoolExecutor
    from claims import metric_at_samples  # noqa: E402
    from report import read_timeline  # noqa: E402
    sim_s = 26.0 * rounds / 1400  # the full stack computes about 49,000 samples a simulated second
    runs = []
    for seed in seeds:
        runs.append((seed, "flat-bsp", ["--set", "network.model=flow", "--set", f"stop.rounds={rounds}",
                                        "--set", "stop.sim_time_s=0", "--set", "eval.every_s=40"]))
        runs.append((seed, row, ["--set", f"stop.sim_time_s={sim_s}", "--set", "eval.every_s=0.5"] +
                     sum((["--set", kv] for kv in row_sets), [])))

    def run(r):
        seed, name, sets = r
        d = os.path.join(out, f"{name}-s{seed}")
        if not os.path.exists(os.path.join(d, "timeline.csv")):
            cmd = [GEOTRAIN, "sim", os.path.join(ROOT, "scenarios", "headline", name + ".json"), "-q", "--out", d,
                   "--set", f"seed={seed}", "--set", "stop.stop_at_target=false"] + sets
            if subprocess.run(cmd).returncode != 0:
                sys.exit(f"error: {' '.join(cmd)} failed")
            print(f"{name} seed {seed} done", file=sys.stderr, flush=True)
        return read_timeline(os.path.join(d, "timeline.csv"))

    with ThreadPoolExecutor(jobs) as ex:
        tls = list(ex.map(run, runs))
    print(f"| seed | samples | flat bsp | {row} | {row} - flat bsp |")
    print("|---|---|---|---|---|")
    diffs = []
    for i, seed in enumerate(seeds):
        flat, other = tls[2 * i], tls[2 * i + 1]
        s = flat[-1]["samples"]
        if other[-1]["samples"] < s:
            sys.exit(f"error: seed {seed}: {row} computed {other[-1]['samples']:.0f} samples, "
                     f"fewer than flat bsp's {s:.0f}")
        a, b = flat[-1]["test_accuracy"], metric_at_samples(other, "test_accuracy", s)
        diffs.append(b - a)
        print(f"| {seed} | {s:,.0f} | {a:.4f} | {b:.4f} | {b - a:+.4f} |")
    print(f"\nmean difference {fmt(interval(diffs), 4)} (95% interval)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="out/headline")
    ap.add_argument("--seeds", default="1,2,3,4,5")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--table-only", action="store_true")
    ap.add_argument("--launch", action="store_true", help="the three-row sim/launch comparison instead")
    ap.add_argument("--target", type=float, default=0.7, help="--launch: the accuracy to time (default 0.7)")
    ap.add_argument("--equal-samples", action="store_true",
                    help="flat bsp and the full stack compared at the same samples, well past the target")
    ap.add_argument("--rounds", type=int, default=1400, help="--equal-samples: flat bsp's rounds (default 1400)")
    ap.add_argument("--row", default="full-stack", choices=row_names(),
                    help="--equal-samples: the row compared with flat bsp (default full-stack)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="--equal-samples: a change to that row, as geotrain's --set (repeatable)")
    a = ap.parse_args()
    if not a.table_only:
        binaries.require_geotrain_from_env()
    if a.equal_samples:
        return equal_samples(a.out if a.out != "out/headline" else "out/headline-equal", [int(s) for s in
                             a.seeds.split(",")], a.rounds, a.j, a.row, a.set)
    if a.launch:
        return launch_rows(a.out if a.out != "out/headline" else "out/headline-launch", a.target)
    seeds = [int(s) for s in a.seeds.split(",")]
    if not a.table_only:
        with open(SWEEP) as f:
            sw = json.load(f)
        sw["seeds"] = seeds
        sw["base"] = os.path.join(ROOT, "scenarios", "headline", "hips-bsp.json")
        sw.pop("$schema", None)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as t:
            json.dump(sw, t)
        r = subprocess.run([GEOTRAIN, "sweep", t.name, "--out", a.out, "-j", str(a.j)])
        os.unlink(t.name)
        if r.returncode != 0:
            sys.exit(r.returncode)
    names = row_names()
    rows = {}
    with open(os.path.join(a.out, "results.csv")) as f:
        for rec in csv.DictReader(f):
            # Points are numbered zip-major: point // seeds is the row.
            idx = int(rec["point"][1:5]) // len(seeds) if rec["point"].startswith("p") else 0
            rows.setdefault(names[idx], []).append(rec)
    times = {n: [float(r["time_to_target_s"]) for r in rs if r["time_to_target_s"]] for n, rs in rows.items()}
    print("| row | seeds reaching 0.82 | time to 0.82 (s) | x faster than flat-bsp | / one-dc | final accuracy | WAN MB |")
    print("|---|---|---|---|---|---|---|")
    flat = statistics.mean(times["flat-bsp"]) if times.get("flat-bsp") else None
    one = statistics.mean(times["one-dc"]) if times.get("one-dc") else None
    for n in names:
        rs = rows.get(n, [])
        if not rs:
            continue
        t = times[n]
        mt = statistics.mean(t) if t else None
        speed = f"{flat / mt:.1f}" if flat and mt else ""
        vs_one = f"{mt / one:.2f}" if one and mt else ""
        acc = interval([float(r["final_test_accuracy"]) for r in rs])
        wan = interval([float(r["wan_bytes"]) / 1e6 for r in rs])
        print(f"| {n} | {len(t)}/{len(rs)} | {fmt(interval(t), 1) if t else '-'} | {speed} | {vs_one} | "
              f"{fmt(acc, 4)} | {fmt(wan, 1)} |")


if __name__ == "__main__":
    main()
