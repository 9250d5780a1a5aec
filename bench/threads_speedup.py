#!/usr/bin/python3
"""What --threads buys: one scenario simulated with 1 thread and with N,
alternately, REPEAT times each; the summaries must be identical apart from
wall time, and the speedup is the ratio of the fastest runs (wall time on a
shared VM varies from run to run; the fastest is the least disturbed).

Usage: bench/threads_speedup.py SCENARIO [--geotrain build/geotrain]
           [--threads 2] [--repeat 3] [--set PATH=VALUE ...]
Exits 1 if any summary differs.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import binaries  # bench/binaries.py: where the binaries are


def run(geotrain, scenario, threads, sets, out):
    cmd = [geotrain, "sim", scenario, "-q", "-o", out, "--threads", str(threads)]
    for s in sets:
        cmd += ["--set", s]
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    s = json.load(open(os.path.join(out, "summary.json")))
    s.pop("wall_time_s", None)
    return wall, s


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario")
    ap.add_argument("--geotrain", default=binaries.GEOTRAIN)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--set", action="append", default=[], dest="sets")
    a = ap.parse_args()
    binaries.require(a.geotrain, "--geotrain")
    walls = {1: [], a.threads: []}
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.repeat):
            for t in (1, a.threads):
                wall, s = run(a.geotrain, a.scenario, t, a.sets, os.path.join(tmp, f"{t}-{i}"))
                walls[t].append(wall)
                if first is None:
                    first = s
                elif s != first:
                    diff = [k for k in s if s[k] != first.get(k)]
                    sys.exit(f"summary with {t} threads differs from the first run's in {diff}")
                print(f"  {t} thread(s): {wall:.2f} s wall", flush=True)
    one, many = min(walls[1]), min(walls[a.threads])
    print(f"{os.path.basename(a.scenario)}: 1 thread {one:.2f} s, {a.threads} threads {many:.2f} s "
          f"(fastest of {a.repeat}): speedup {one / many:.2f}x; all {2 * a.repeat} summaries identical")


if __name__ == "__main__":
    main()
