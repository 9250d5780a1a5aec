#!/usr/bin/env python3
"""The fault matrix: every role kind x {kill, stall, restart} x {start-up, mid-run,
at a checkpoint}, under one policy per family (bsp, asp, esync, hfa, gaia), a WAN
scheduler (tsengine) and a sharded global server (MultiGPS), each as one
`geotrain launch` on loopback with a small synthetic job.

Each case must end within BOUND_S of wall time (no hang) with the exit status and
summary that docs/faults.md states for it (EXPECTED below is that table, as code).

usage: fault_matrix.py GEOTRAIN SOURCE_DIR [--sample N] [--seed S] [-j J]
                       [--work DIR] [--markdown FILE] [--only SUBSTRING]
  --sample N    a seeded sample of N cases (CI) instead of all of them
  --markdown    write the results table (docs/fault-matrix.md)
Exit 0 when every case ran as expected, 1 otherwise (each failure printed).
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import time

STARTUP_TIMEOUT_S = 5
FAILURE_TIMEOUT_S = 1
STALL_S = 3  # past the failure timeout: the stalled node is declared down, then comes back
MID_S = 2  # a mid-run fault: this long after the job's start
BOUND_S = 60  # every case ends within this: the calm job (under 15 s) + 9 start-up timeouts

SMALL = [
    'model={"kind":"mlp","hidden":[16]}',
    'dataset={"kind":"synthetic","features":32,"classes":4,"train":2000,"test":400}',
    'eval={"every_rounds":50}',
]

# family -> (scenario, extra sets, rounds, the roles to fault: kind -> node name)
FAMILIES = {
    "bsp": ("scenarios/quickstart.json", [], 600),
    "asp": ("scenarios/quickstart.json", ['policy={"kind":"asp"}'], 1200),
    "esync": ("scenarios/quickstart.json", ['policy={"kind":"esync"}'], 400),
    "hfa": ("scenarios/quickstart.json", ['policy={"kind":"hfa","k1":2,"k2":2}'], 600),
    "gaia": ("scenarios/quickstart.json", ['policy={"kind":"gaia"}'], 1200),
    "tsengine": ("scenarios/fastwan-4dc-bsp.json", ['schedule={"wan":{"kind":"tsengine"}}', "batch_size=3"], 120),
    "multigps": ("scenarios/quickstart.json", ['multigps={"servers":2,"split_above":100}'], 600),
}

ROLES = {
    "worker": "dc-a/worker0",
    "local server": "dc-a/local-server",
    "global server": "global-server",
    "state server": "state-server",
    "shard server": "global-server-1",
}


def roles_of(family):
    kinds = ["worker", "local server", "global server"]
    if family == "esync":
        kinds.append("state server")
    if family == "multigps":
        kinds.append("shard server")
    return kinds


ACTIONS = ["kill", "stall", "restart"]
PHASES = ["startup", "mid-run", "checkpoint"]


def expected(family, role, action, phase):
    """The documented outcome (docs/faults.md): ("complete", None) = exit 0 and every round
    done; ("error", text) = exit 1, a partial summary whose error contains text; ("either",
    text) = one of the two."""
    if action == "stall":
        return ("complete", None)  # declared down, back, caught up
    if role == "worker":
        return ("complete", None)  # left out, or rejoined
    if role == "global server":
        if action == "kill":
            return ("error", "the global server was lost")
        # restarted: from nothing at start-up, from its checkpoint when it has one
        return ("error", "no checkpoint") if phase == "mid-run" else ("complete", None)
    if action == "kill" and phase == "startup":
        return ("error", "start-up timed out")  # every server must join
    if family == "multigps" and role == "shard server" and action == "restart" and phase != "startup":
        # resumes from its own checkpoint; without one its shard is lost and the job ends at once
        return ("complete", None) if phase == "checkpoint" else ("error", "has no checkpoint to resume from")
    if family == "multigps" and role == "local server" and action == "restart" and phase != "startup":
        return ("either", "no round completed")  # a child lost between its shards' pushes is not always taken back
    if role in ("state server", "shard server") and action == "kill":
        return ("error", ROLES[role] + " has been unreachable")  # waited for, then the job ends
    return ("complete", None)  # a local server lost takes its DC out; restarted ones are taken back


def cases():
    out = []
    for family in FAMILIES:
        for role in roles_of(family):
            for action in ACTIONS:
                for phase in PHASES:
                    out.append((family, role, action, phase))
    return out


def run_case(geotrain, src, work, case):
    family, role, action, phase = case
    scenario, extra, rounds = FAMILIES[family]
    name = "-".join(x.replace(" ", "_") for x in case)
    out = os.path.join(work, name)
    shutil.rmtree(out, ignore_errors=True)
    when = {"startup": "startup", "mid-run": str(MID_S), "checkpoint": "checkpoint"}[phase]
    cmd = [geotrain, "launch", os.path.join(src, scenario), "--out", out, "-q",
           "--timeout", str(2 * BOUND_S), "--failure-timeout", str(FAILURE_TIMEOUT_S),
           "--startup-timeout", str(STARTUP_TIMEOUT_S), "--stall-for", str(STALL_S),
           "--fault", f"{action}:{ROLES[role]}@{when}"]
    if phase == "checkpoint":
        cmd += ["--checkpoint-every", "5"]
    if scenario.endswith("quickstart.json"):
        extra = extra + ["topology.wan.default.latency_ms=5"]  # rounds of milliseconds
    for s in SMALL + extra + ['stop={"rounds":%d}' % rounds]:
        cmd += ["--set", s]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=3 * BOUND_S)
        code, output = p.returncode, p.stdout + p.stderr
    except subprocess.TimeoutExpired:
        code, output = None, "hung: killed by the matrix"
    took = time.monotonic() - t0
    summary = {}
    try:
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError):
        pass
    kind, text = expected(*case)
    problems = []
    if took > BOUND_S:
        problems.append(f"took {took:.1f} s, over the {BOUND_S} s bound")
    if kind == "either":  # completes, or ends with the documented error
        kind = "complete" if code == 0 else "error"
    if kind == "complete":
        if code != 0:
            problems.append(f"exit {code}, expected 0")
        if summary.get("rounds") != rounds:
            problems.append(f"rounds {summary.get('rounds')}, expected {rounds}")
    else:
        if code != 1:
            problems.append(f"exit {code}, expected 1")
        if text not in (summary.get("error") or ""):
            problems.append(f"summary error {summary.get('error')!r} does not say {text!r}")
    for f in summary.get("faults", []):
        if not 0 <= f["time_s"] <= took + 1:
            problems.append(f"fault time {f['time_s']} not on the run's clock")
            break
    result = {
        "case": case, "exit": code, "took_s": round(took, 1), "rounds": summary.get("rounds"),
        "error": summary.get("error") or "", "expected": kind, "problems": problems,
        "output": output[-2000:] if problems else "",
    }
    if not problems:
        shutil.rmtree(out, ignore_errors=True)
    return result


def outcome_text(r):
    if r["expected"] == "complete":
        return f"completes, {r['rounds']} rounds"
    err = r["error"]
    return "ends: " + (err[:90] + "..." if len(err) > 90 else err)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("geotrain")
    ap.add_argument("source_dir")
    ap.add_argument("--sample", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", type=int, default=1)
    ap.add_argument("--work", default="/tmp/geotrain-fault-matrix")
    ap.add_argument("--markdown", default="")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    todo = [c for c in cases() if a.only in " ".join(c)]
    total = len(todo)
    if a.sample:
        todo = random.Random(a.seed).sample(todo, min(a.sample, len(todo)))
    print(f"fault matrix: {len(todo)} of {total} cases, -j {a.j}, bound {BOUND_S} s each", flush=True)
    os.makedirs(a.work, exist_ok=True)
    results = []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(a.j) as pool:
        futures = [pool.submit(run_case, a.geotrain, a.source_dir, a.work, c) for c in todo]
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            r = fut.result()
            results.append(r)
            status = "ok" if not r["problems"] else "FAIL: " + "; ".join(r["problems"])
            print(f"[{i}/{len(todo)}] {' / '.join(r['case'])}: {r['took_s']} s, exit {r['exit']}: {status}",
                  flush=True)
    failed = [r for r in results if r["problems"]]
    for r in failed:
        print(f"\n--- {' / '.join(r['case'])}\n{r['output']}")
    wall = time.monotonic() - t0
    longest = max(r["took_s"] for r in results)
    print(f"\nfault matrix: {len(results) - len(failed)} of {len(results)} as documented; longest case "
          f"{longest} s (bound {BOUND_S} s); {wall:.0f} s in all")
    if a.markdown:
        order = {c: i for i, c in enumerate(cases())}
        results.sort(key=lambda r: order[tuple(r["case"])])
        with open(a.markdown, "w") as f:
            f.write("# The fault matrix, as last run\n\n")
            f.write("Generated by `tests/fault_matrix.py build/geotrain . -j 2 --markdown docs/fault-matrix.md`;\n")
            f.write("the rules it checks are in [faults.md](faults.md). Start-up timeout "
                    f"{STARTUP_TIMEOUT_S} s, failure timeout {FAILURE_TIMEOUT_S} s, stalls of {STALL_S} s, "
                    f"mid-run faults {MID_S} s after the start, checkpoints every 5 rounds.\n\n")
            f.write(f"{len(results) - len(failed)} of {len(results)} cases as documented; the longest took "
                    f"{longest} s against a bound of {BOUND_S} s.\n\n")
            f.write("| policy | role | fault | when | outcome | exit | wall s | as documented |\n")
            f.write("|---|---|---|---|---|---|---|---|\n")
            for r in results:
                fam, role, action, phase = r["case"]
                f.write(f"| {fam} | {role} | {action} | {phase} | {outcome_text(r)} | {r['exit']} | "
                        f"{r['took_s']} | {'yes' if not r['problems'] else 'NO: ' + '; '.join(r['problems'])} |\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
