#!/usr/bin/env python3
"""Writes the multi-DC topologies of topologies/ (2dc, 4dc, 8dc-hetero, 16dc).

One-way WAN latency between two regions = great-circle distance / (200 km/ms, light in
fibre) x 1.4 (fibre routes are longer than great circles) + 2 ms (switching), rounded to
0.1 ms. Bandwidths, worker counts and speeds are our choices, stated per file; they are
illustrative, not measurements of any provider. Rerun after editing: python3 topologies/generate.py
"""
import json
import math
import os

REGIONS = {  # name: (lat, lon)
    "us-east": (38.9, -77.0), "us-west": (45.6, -121.2), "eu-west": (53.3, -6.3),
    "eu-central": (50.1, 8.7), "ap-northeast": (35.7, 139.7), "ap-southeast": (1.35, 103.8),
    "sa-east": (-23.5, -46.6), "ap-south": (19.1, 72.9), "ca-central": (45.5, -73.6),
    "eu-north": (59.3, 18.1), "ap-east": (22.3, 114.2), "af-south": (-33.9, 18.4),
    "me-south": (26.1, 50.6), "ap-southeast-2": (-33.9, 151.2), "us-central": (41.3, -95.9),
    "eu-south": (45.5, 9.2),
}


def latency_ms(a, b):
    (la1, lo1), (la2, lo2) = REGIONS[a], REGIONS[b]
    p1, p2, dl = math.radians(la1), math.radians(la2), math.radians(lo2 - lo1)
    d = 6371 * math.acos(min(1, math.sin(p1) * math.sin(p2) + math.cos(p1) * math.cos(p2) * math.cos(dl)))
    return round(d / 200 * 1.4 + 2, 1)


def topology(name, description, dcs, gs, bandwidth, latency=latency_ms, speed="worker_gflops"):
    """dcs: [(region, workers, speed)], bandwidth(a, b) -> Mbps, latency(a, b) -> ms one way."""
    names = [d[0] for d in dcs]
    links = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            links.append({"between": [a, b], "bandwidth_mbps": bandwidth(a, b), "latency_ms": latency(a, b)})
    return {
        "$schema": "./topology.schema.json",
        "name": name,
        "description": description,
        "lan": {"bandwidth_mbps": 10000, "latency_ms": 0.05},
        "dcs": [{"name": r, "workers": w, speed: g} for r, w, g in dcs],
        "global_server_dc": gs,
        "wan": {"links": links},
    }


def same_continent(a, b):
    return a.split("-")[0] == b.split("-")[0]


def write(t):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), t["name"] + ".json")
    with open(path, "w") as f:
        json.dump(t, f, indent=2)
        f.write("\n")


write(topology("2dc", "Two regions (US east, EU west), 4 workers each at 10 GFLOP/s; the global server and its "
               "local server share US east (central-party workers). 100 Mbps transatlantic WAN.",
               [("us-east", 4, 10), ("eu-west", 4, 10)], "us-east", lambda a, b: 100))
write(topology("4dc", "Four regions on three continents, 4 workers each at 10 GFLOP/s. 200 Mbps within a "
               "continent, 50 Mbps across.",
               [("us-east", 4, 10), ("us-west", 4, 10), ("eu-west", 4, 10), ("ap-northeast", 4, 10)], "us-east",
               lambda a, b: 200 if same_continent(a, b) else 50))
write(topology("8dc-hetero", "Eight regions with heterogeneous DCs: 1 to 8 workers, 1 to 20 GFLOP/s (a 20x compute "
               "gap, as in ESync's setting), WAN 20 to 500 Mbps (faster within a continent and from the hub).",
               [("us-east", 8, 20), ("us-west", 4, 10), ("eu-west", 4, 10), ("eu-central", 2, 5),
                ("ap-northeast", 2, 20), ("ap-southeast", 1, 1), ("sa-east", 2, 2), ("ap-south", 1, 4)], "us-east",
               lambda a, b: 500 if same_continent(a, b) else (100 if "us-east" in (a, b) else 20)))
write(topology("16dc", "Sixteen regions worldwide, 2 workers each at 10 GFLOP/s, 100 Mbps between every pair: "
               "a scale test for the simulator and for policies that reduce WAN rounds.",
               [(r, 2, 10) for r in REGIONS], "us-east", lambda a, b: 100))

# The policy comparison (scenarios/hetero-4dc-*.json, fastwan-4dc-*.json): 4 DCs of 2 workers whose
# steps of 32 samples take 0.1, 0.1, 0.125 and 1 s (a 10x spread: one slow DC), every pair 5 ms apart, and a
# 50 Mbps or a 10 Gbps WAN. With the scenarios' 610k-parameter MLP a bsp round over the thin WAN
# spends about as long in the WAN as in the slowest step.
HETERO_4DC = [("dc-a", 2, 320), ("dc-b", 2, 320), ("dc-c", 2, 256), ("dc-d", 2, 32)]
write(topology("hetero-4dc", "Four DCs of 2 workers, steps of 0.1, 0.1, 0.125 and 1 s (32 samples): a 10x compute "
               "spread; every pair 50 Mbps, 5 ms one way. The global and state servers are in dc-a.",
               HETERO_4DC, "dc-a", lambda a, b: 50, lambda a, b: 5, "worker_samples_per_s"))
write(topology("fastwan-4dc", "hetero-4dc with a 10 Gbps WAN: the same 10x compute spread, every pair 10 Gbps, "
               "5 ms one way.", HETERO_4DC, "dc-a", lambda a, b: 10000, lambda a, b: 5, "worker_samples_per_s"))

# The policy atlas (examples/sweeps/policy-atlas.json): 4 DCs of 2 workers, every pair 5 ms apart, on three
# WANs (thin 20 Mbps, medium 200 Mbps, fat 10 Gbps) and two compute spreads: uniform (every step of 32
# samples 0.1 s) and 10x (hetero-4dc's 0.1, 0.1, 0.125 and 1 s).
UNIFORM_4DC = [("dc-a", 2, 320), ("dc-b", 2, 320), ("dc-c", 2, 320), ("dc-d", 2, 320)]
for wan, mbps in (("thin", 20), ("medium", 200), ("fat", 10000)):
    for spread, dcs, what in (("uniform", UNIFORM_4DC, "every step of 32 samples 0.1 s"),
                              ("10x", HETERO_4DC, "steps of 0.1, 0.1, 0.125 and 1 s (a 10x spread)")):
        write(topology(f"atlas-{wan}-{spread}", f"Policy atlas: four DCs of 2 workers, {what}; every pair "
                       f"{mbps} Mbps ({wan} WAN), 5 ms one way. The global and state servers are in dc-a.",
                       dcs, "dc-a", lambda a, b, m=mbps: m, lambda a, b: 5, "worker_samples_per_s"))
