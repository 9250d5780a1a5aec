#!/usr/bin/python3
"""Real-mode data path against the loopback's limits, measured in one run:
100 MB push+pull between two processes over geotrain (plain and TLS), over
raw TCP sockets driven the fastest way we found, and iperf3's single stream
(when installed). Repetitions are interleaved at random so that a slow
moment of a shared VM does not fall on one benchmark only; the rates are
medians.

Usage: bench/real_throughput.py [--bench build/geotrain-bench] [--repeat 5]
Prints every rate in MB/s and the ratios the targets are stated in:
geotrain / iperf3 single stream (target >= 0.70) and TLS / plain (>= 0.5).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

import binaries  # bench/binaries.py: where the binaries are


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=binaries.GEOTRAIN_BENCH)
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    binaries.require(a.bench, "--bench")
    out = subprocess.run(
        [a.bench, "--benchmark_filter=PushPull|Iperf3", f"--benchmark_repetitions={a.repeat}",
         "--benchmark_enable_random_interleaving=true", "--benchmark_format=json"],
        check=True, capture_output=True, text=True).stdout
    rates = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") != "iteration" or "MBps" not in b:
            continue
        rates.setdefault(b["run_name"].split("/min_time")[0].split("/iterations")[0], []).append(b["MBps"])
    names = {"BM_GeotrainPushPull/0": "geotrain", "BM_GeotrainPushPull/1": "geotrain TLS",
             "BM_RawTcpPushPull": "raw TCP", "BM_Iperf3SingleStream": "iperf3 single stream"}
    med = {}
    for key, label in names.items():
        if key in rates:
            med[label] = statistics.median(rates[key])
            runs = ", ".join(f"{r:.0f}" for r in rates[key])
            print(f"{label:22s} {med[label]:7.0f} MB/s  (runs: {runs})")
        else:
            print(f"{label:22s}     n/a")
    ok = True

    def ratio(name, num, den, target):
        nonlocal ok
        if num in med and den in med:
            r = med[num] / med[den]
            if target is None:
                return print(f"{name:32s} {r:.2f}")
            met = r >= target
            ok &= met
            print(f"{name:32s} {r:.2f}  (target >= {target}: {'met' if met else 'NOT met'})")

    ratio("geotrain / iperf3 single stream", "geotrain", "iperf3 single stream", 0.70)
    ratio("geotrain / raw TCP", "geotrain", "raw TCP", None)
    ratio("TLS / plain", "geotrain TLS", "geotrain", 0.5)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
