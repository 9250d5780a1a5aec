#!/usr/bin/python3
"""The CNN learner's training step against the same network in PyTorch, one core, batch 64.

geotrain: build/geotrain-bench --benchmark_filter=BM_CnnStep (forward and backward: the gradient a worker
pushes). PyTorch (Debian's python3-torch, when installed): the same layers (conv 1->16 5x5 pad 2, ReLU,
2x2 max pool; conv 16->32 5x5 pad 2, ReLU, pool; dense 1568->128, ReLU; dense 128->10), cross-entropy,
forward and backward, torch.set_num_threads(1). Both are run here, one after the other, and the ratio printed.

Usage: bench/cnn_vs_torch.py   (Debian's python3; needs build/geotrain-bench; python3-torch is optional)
"""
import json
import os
import subprocess
import sys
import time

import binaries  # bench/binaries.py: where the binaries are


def geotrain_ms():
    out = subprocess.run([binaries.require(binaries.GEOTRAIN_BENCH), "--benchmark_filter=BM_CnnStep",
                          "--benchmark_format=json"], capture_output=True, text=True, check=True).stdout
    b = json.loads(out)["benchmarks"][0]
    return b["real_time"] if b["time_unit"] == "ms" else b["real_time"] / 1e6


def torch_ms():
    try:
        import torch
        import torch.nn as nn
    except ImportError:
        return None, None
    torch.set_num_threads(1)
    torch.manual_seed(1)
    net = nn.Sequential(nn.Conv2d(1, 16, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                        nn.Conv2d(16, 32, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                        nn.Linear(32 * 7 * 7, 128), nn.ReLU(), nn.Linear(128, 10))
    x = torch.rand(64, 1, 28, 28)
    y = torch.arange(64) % 10
    loss_fn = nn.CrossEntropyLoss()

    def step():
        net.zero_grad(set_to_none=True)
        loss_fn(net(x), y).backward()

    for _ in range(10):
        step()
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < 3.0:
        step()
        n += 1
    return 1e3 * (time.perf_counter() - t0) / n, torch.__version__


def main():
    g = geotrain_ms()
    t, version = torch_ms()
    print(f"geotrain CNN step, batch 64, one core: {g:.2f} ms ({64e3 / g:.0f} samples/s)")
    if t is None:
        print("PyTorch: not installed (apt install python3-torch to compare)")
        return
    print(f"PyTorch {version} same network, batch 64, one thread: {t:.2f} ms ({64e3 / t:.0f} samples/s)")
    print(f"geotrain / PyTorch time: {g / t:.2f}x")


if __name__ == "__main__":
    sys.exit(main())
