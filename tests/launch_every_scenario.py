#!/usr/bin/env python3
"""Every shipped scenario (scenarios/, its subfolders) as real processes: `geotrain launch`
for two rounds, at the scenario's own settings (its learner, data, codecs, policy and
architecture), so a real-mode regression of any of them (a frame limit, a phase a restart
breaks) fails CI. Shortened: local rounds (hfa's k1, k2, local_sgd's h) of 2 steps, and one
worker per data centre where a scenario would start more than 16 processes. A scenario whose learner runs only in simulation (a workload profile) must
be refused with exit 2 saying so. Several launches at a time: each mostly waits on its WAN.

usage: launch_every_scenario.py SOURCE_DIR GEOTRAIN [-j N] [--only SUBSTRING] [--exclude SUBSTRING ...]

All 96 take about 6 minutes on this project's 2-core machine (docs/hardening.md quotes the last
run). CI runs all but the policy x topology grids and the 8-DC sets (hetero-4dc-*, fastwan-4dc-*,
headline/*, wan8-*: 35 scenarios, two thirds of the time; the learners, codecs, DGT, P3, MultiGPS
and fidelity scenarios all run), whose policies RealModePolicy and RealModeStateServer launch.
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import tempfile
import time


def scenarios(src):
    out = []
    for p in sorted(glob.glob(os.path.join(src, "scenarios", "**", "*.json"), recursive=True)):
        name = os.path.basename(p)
        if name.endswith(".schema.json") or ".expected." in name:
            continue
        out.append(p)
    return out


def launch(geotrain, src, path, work):
    name = os.path.relpath(path, os.path.join(src, "scenarios")).replace("/", "-")[:-5]
    out = os.path.join(work, name)
    # Two rounds: a tree's or a sketch's first round only bins, the second is the learner's own work.
    cmd = [geotrain, "launch", path, "--out", out, "-q", "--timeout", "240", "--set", "stop.rounds=2"]
    # Local rounds shortened as the learner matrix does (hfa's 20 x 10 local steps are 200 s of modelled compute
    # a round): the protocol is the same, with fewer steps between syncs.
    sc = json.load(open(path))
    policy = sc.get("policy", {})
    for k in ("k1", "k2", "h"):
        if isinstance(policy.get(k), int) and policy[k] > 2:
            cmd += ["--set", f"policy.{k}=2"]
    # Each process loads its own copy of the data: a scenario of more than 16 processes runs with one
    # worker per data centre (the same roles, stack and learner; CI has 2 cores).
    topo = sc.get("topology")
    if isinstance(topo, str):
        topo = json.load(open(os.path.join(os.path.dirname(path), topo)))
    dcs = topo.get("dcs", []) if isinstance(topo, dict) else []
    if sum(d.get("workers", 0) + 1 for d in dcs) + 1 > 16:
        for i, d in enumerate(dcs):
            if d.get("workers", 0) > 1:
                cmd += ["--set", f"topology.dcs.{i}.workers=1"]
    t0 = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    secs = time.time() - t0
    text = (p.stdout + p.stderr).strip()
    if p.returncode == 2 and "runs only in simulation" in text:
        return name, True, "refused (simulation only)", secs
    if p.returncode != 0:
        return name, False, f"exit {p.returncode}: {text[-400:]}", secs
    s = json.load(open(os.path.join(out, "summary.json")))
    if s.get("error") or s.get("rounds", 0) < 1:
        return name, False, f"rounds {s.get('rounds')}, error {s.get('error')}", secs
    return name, True, f"{s['rounds']} rounds", secs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("geotrain")
    ap.add_argument("-j", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--exclude", action="append", default=[])
    a = ap.parse_args()
    todo = [p for p in scenarios(a.src) if a.only in p and not any(x in p for x in a.exclude)]
    failures = []
    t0 = time.time()
    with tempfile.TemporaryDirectory() as work:
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
            futures = [pool.submit(launch, a.geotrain, a.src, p, work) for p in todo]
            for k, f in enumerate(concurrent.futures.as_completed(futures), 1):
                name, ok, what, secs = f.result()
                print(f"[{k}/{len(todo)}] {name}: {'ok' if ok else 'FAILED'} ({what}) in {secs:.1f} s", flush=True)
                if not ok:
                    failures.append(f"{name}: {what}")
    for f in failures:
        print("FAIL:", f)
    print(f"{len(todo) - len(failures)} of {len(todo)} shipped scenarios launched in {time.time() - t0:.0f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
