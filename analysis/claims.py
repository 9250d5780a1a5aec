#!/usr/bin/env python3
"""The claims report: every published claim (examples/claims/claims.json) measured on its own
scenarios over several seeds, each check's mean with a 95% interval against the published figure.

usage: claims.py run FILE --out DIR [-j N] [--seeds 1,2,3] [--geotrain BIN]
         runs every row of FILE once per seed (finished runs are kept: a rerun resumes),
         then renders the report
       claims.py render DIR
         DIR/claims.md, DIR/claims.html (plots embedded) and DIR/claims/<claim>.png

A check compares rows seed by seed (ratio a/b or difference a-b of one summary field, or one row's
value) and holds when the whole 95% interval of its mean lies inside its bounds (at_least,
at_most): "reproduced". When only the direction holds (the interval is on the claim's side of 1
for a ratio, of 0 for a difference) it says "direction only"; otherwise "not reproduced". A seed
where a row never reached its target has no value, and a check missing a seed is not reproduced.
With "at_equal_samples", the field is a timeline metric read where both rows had computed the same
training samples (the smaller of their final counts).
"""
import argparse
import base64
import concurrent.futures
import html
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time

# Student's t at 97.5% for n - 1 degrees of freedom.
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
        11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 19: 2.093, 29: 2.045}


def interval(xs):
    """(mean, half-width of the 95% t interval); half-width None with fewer than two values."""
    m = statistics.mean(xs)
    if len(xs) < 2:
        return m, None
    return m, T975.get(len(xs) - 1, 1.96) * statistics.stdev(xs) / math.sqrt(len(xs))


class ClaimsError(Exception):
    pass


CHECK_KEYS = {"what", "ratio", "difference", "value", "field", "at_equal_samples", "published", "at_least", "at_most"}


def load(path):
    """The claims file, checked: every check names rows that exist, every row a scenario that exists."""
    try:
        with open(path) as f:
            c = json.load(f)
    except OSError as e:
        raise ClaimsError(f"{path}: cannot read ({e.strerror})")
    except json.JSONDecodeError as e:
        raise ClaimsError(f"{path}: malformed JSON ({e.msg} at line {e.lineno})")
    base = os.path.dirname(os.path.abspath(path))
    if not isinstance(c.get("rows"), dict) or not c["rows"]:
        raise ClaimsError(f"{path}: /rows: expected an object of named rows")
    for name, r in c["rows"].items():
        if not isinstance(r, dict) or not isinstance(r.get("scenario"), str):
            raise ClaimsError(f"{path}: /rows/{name}/scenario: expected a scenario file name")
        r["scenario"] = os.path.normpath(os.path.join(base, r["scenario"]))
        if not os.path.exists(r["scenario"]):
            raise ClaimsError(f"{path}: /rows/{name}/scenario: no such file {r['scenario']}")
        if not all(isinstance(s, str) and "=" in s for s in r.get("sets", [])):
            raise ClaimsError(f"{path}: /rows/{name}/sets: expected [\"path=value\", ...]")
    if not isinstance(c.get("claims"), list) or not c["claims"]:
        raise ClaimsError(f"{path}: /claims: expected a list of claims")
    for i, cl in enumerate(c["claims"]):
        for key in ("id", "claim", "checks"):
            if key not in cl:
                raise ClaimsError(f"{path}: /claims/{i}/{key}: missing")
        for j, ch in enumerate(cl["checks"]):
            where = f"{path}: /claims/{i}/checks/{j}"
            unknown = sorted(set(ch) - CHECK_KEYS)
            if unknown:
                raise ClaimsError(f"{where}/{unknown[0]}: unknown key (valid here: {', '.join(sorted(CHECK_KEYS))})")
            kinds = [k for k in ("ratio", "difference", "value") if k in ch]
            if len(kinds) != 1:
                raise ClaimsError(f"{where}: expected exactly one of ratio, difference, value")
            rows = ch[kinds[0]] if kinds[0] != "value" else [ch["value"]]
            if kinds[0] != "value" and (not isinstance(rows, list) or len(rows) != 2):
                raise ClaimsError(f"{where}/{kinds[0]}: expected [row, row]")
            for r in rows:
                if r not in c["rows"]:
                    raise ClaimsError(f"{where}/{kinds[0]}: no row named '{r}' in /rows")
            if "at_least" not in ch and "at_most" not in ch:
                raise ClaimsError(f"{where}: expected at_least and/or at_most")
            if "field" not in ch:
                raise ClaimsError(f"{where}/field: missing")
    seeds = c.get("seeds", [1])
    if not seeds or not all(isinstance(s, int) and s >= 0 for s in seeds):
        raise ClaimsError(f"{path}: /seeds: expected a list of non-negative integers")
    return c


def child_env():
    """The environment for a geotrain this script starts: without GEOTRAIN_PARENT_PID, which names
    the geotrain that started this script, and whose die-with-parent check would end the child."""
    return {k: v for k, v in os.environ.items() if k != "GEOTRAIN_PARENT_PID"}


def run_dir(out, row, seed):
    return os.path.join(out, "runs", row, f"seed-{seed}")


def run(args):
    c = load(args.file)
    try:
        seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else c.get("seeds", [1])
    except ValueError:
        raise ClaimsError(f"--seeds: expected comma-separated integers, got '{args.seeds}'") from None
    c["seeds"] = seeds
    c["source"] = os.path.relpath(args.file)
    for name, r in c["rows"].items():  # every row's overrides checked before any run starts
        cmd = [args.geotrain, "validate", r["scenario"]] + sum((["--set", s] for s in r.get("sets", [])), [])
        p = subprocess.run(cmd, capture_output=True, text=True, env=child_env())
        if p.returncode != 0:
            why = (p.stderr.strip().splitlines() or [f"exit {p.returncode}"])[-1].removeprefix("error: ")
            raise ClaimsError(f"{args.file}: /rows/{name}: {why}")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "claims.json"), "w") as f:  # what render reads: rows resolved, seeds used
        json.dump(c, f, indent=1)
    jobs = [(row, s) for row in c["rows"] for s in seeds
            if not os.path.exists(os.path.join(run_dir(args.out, row, s), "summary.json"))]
    kept = len(c["rows"]) * len(seeds) - len(jobs)
    print(f"{len(jobs)} run(s) to do ({len(c['rows'])} rows x {len(seeds)} seeds, {kept} kept from before), "
          f"{args.j} at a time", flush=True)
    t0 = time.time()
    failed = []

    def one(job):
        row, seed = job
        r = c["rows"][row]
        d = run_dir(args.out, row, seed)
        shutil.rmtree(d, ignore_errors=True)
        cmd = [args.geotrain, "sim", r["scenario"], "--out", d, "-q", "--set", f"seed={seed}"]
        for s in r.get("sets", []):
            cmd += ["--set", s]
        start = time.time()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=child_env())
        return job, p.returncode, p.stderr.strip().splitlines()[-1:] or [""], time.time() - start

    with concurrent.futures.ThreadPoolExecutor(max_workers=args.j) as pool:
        done = concurrent.futures.as_completed([pool.submit(one, j) for j in jobs])
        for k, (job, rc, err, secs) in enumerate((f.result() for f in done), 1):
            # exit 1 is a run that ended badly but wrote its summary (a diverged model): kept, reported.
            ok = rc == 0 or os.path.exists(os.path.join(run_dir(args.out, *job), "summary.json"))
            if not ok:
                failed.append((job, rc, err[0]))
            print(f"[{k}/{len(jobs)}] {job[0]} seed {job[1]}: {'done' if ok else f'FAILED (exit {rc}): {err[0]}'} "
                  f"in {secs:.0f} s (elapsed {time.time() - t0:.0f} s)", flush=True)
    if jobs:  # what the report says of how it was made (a rerun that ran nothing keeps the last one's)
        with open(os.path.join(args.out, "run-info.json"), "w") as f:
            json.dump({"runs": len(jobs), "jobs": args.j, "wall_time_s": round(time.time() - t0, 1),
                       "cpus": os.cpu_count()}, f)
    if failed:
        print(f"error: {len(failed)} run(s) failed; the report counts their seeds as missing", file=sys.stderr)
    render(args.out)
    return 1 if failed else 0


def field(summary, name):
    """A summary field by dotted path, or one of the derived fields below; None when absent."""
    if name == "min_dc_compute_busy":
        return min(dc["compute_busy_fraction"] for dc in summary["dcs"] if dc["workers"] > 0)
    if name == "steps_per_wan_sync":
        return summary["worker_steps"] / summary["wan_syncs"] if summary.get("wan_syncs") else None
    v = summary
    for part in name.split("."):
        if not isinstance(v, dict) or part not in v:
            return None
        v = v[part]
    return v


def timeline(out, row, seed):
    """The run's timeline.csv as dicts of floats ([] without one)."""
    from report import read_timeline  # report.py beside this file (it loads matplotlib: only when needed)
    return read_timeline(os.path.join(run_dir(out, row, seed), "timeline.csv"))


def metric_at_samples(tl, metric, s):
    """The metric at s samples, linear between the evaluations on either side (evaluations are
    seconds apart, and a fast row computes tens of thousands of samples a second: taking the one
    before would judge it on up to a second's fewer samples); None before the first."""
    before = [r for r in tl if r["samples"] <= s]
    after = [r for r in tl if r["samples"] >= s]
    if not before:
        return None
    a = before[-1]
    if not after or after[0]["samples"] == a["samples"]:
        return a[metric]
    b = after[0]
    w = (s - a["samples"]) / (b["samples"] - a["samples"])
    return a[metric] + w * (b[metric] - a[metric])


def at_equal_samples(out, rows, seed, metric):
    """Each row's metric at the same training samples S, the smaller of the two runs' final
    sample counts (timeline.csv's samples column)."""
    tls = [timeline(out, r, seed) for r in rows]
    if not all(tl and "samples" in tl[-1] and metric in tl[-1] for tl in tls):
        return [None] * len(rows)
    s = min(tl[-1]["samples"] for tl in tls)
    return [metric_at_samples(tl, metric, s) for tl in tls]


def summaries(out, c):
    """{row: {seed: summary}} for the runs that finished."""
    res = {}
    for row in c["rows"]:
        for s in c["seeds"]:
            p = os.path.join(run_dir(out, row, s), "summary.json")
            if os.path.exists(p):
                with open(p) as f:
                    res.setdefault(row, {})[s] = json.load(f)
    return res


def evaluate(check, runs, seeds, out):
    """Per-seed values, interval and verdict of one check."""
    kind = next(k for k in ("ratio", "difference", "value") if k in check)
    rows = check[kind] if kind != "value" else [check["value"]]
    values = {}
    for s in seeds:
        if not all(s in runs.get(r, {}) for r in rows):
            continue
        if check.get("at_equal_samples"):
            vs = at_equal_samples(out, rows, s, check["field"])
        else:
            vs = [field(runs[r][s], check["field"]) for r in rows]
        if any(v is None for v in vs):
            continue
        if kind == "ratio":
            if vs[1] != 0:
                values[s] = vs[0] / vs[1]
        elif kind == "difference":
            values[s] = vs[0] - vs[1]
        else:
            values[s] = vs[0]
    res = {"kind": kind, "rows": rows, "values": values, "n": len(values), "of": len(seeds)}
    if not values:
        res.update(mean=None, half=None, verdict="not reproduced (no seed has a value)")
        return res
    m, h = interval(list(values.values()))
    lo, hi = (m - h, m + h) if h is not None else (m, m)
    lo_ok = check.get("at_least") is None or lo >= check["at_least"]
    hi_ok = check.get("at_most") is None or hi <= check["at_most"]
    neutral = {"ratio": 1.0, "difference": 0.0}.get(kind)
    # The claim's side of "no effect" (1 for a ratio, 0 for a difference): above it when the claim
    # asks for at least more than that, below it when it asks for at most less.
    direction = False
    if neutral is not None and check.get("at_least") is not None and check["at_least"] > neutral:
        direction = lo > neutral
    elif neutral is not None and check.get("at_most") is not None and check["at_most"] < neutral:
        direction = hi < neutral
    if len(values) < len(seeds):
        verdict = f"not reproduced ({len(seeds) - len(values)} seed(s) without a value)"
    elif lo_ok and hi_ok:
        verdict = "reproduced"
    elif direction:
        verdict = "direction only"
    else:
        verdict = "not reproduced"
    res.update(mean=m, half=h, lo=lo, hi=hi, verdict=verdict)
    return res


def bounds(check):
    lo, hi = check.get("at_least"), check.get("at_most")
    if lo is not None and hi is not None:
        return f"{lo:g} to {hi:g}"
    return f">= {lo:g}" if lo is not None else f"<= {hi:g}"


def decimals(v):
    a = abs(v)
    return 1 if a >= 100 else 2 if a >= 1 else 3


def fmt(v, like=None):
    """v with the decimals its size (or like's, for a half-width beside its mean) calls for."""
    if v is None:
        return "-"
    return f"{v:.{decimals(v if like is None else like)}f}"


def plot(claim, results, seeds, out, png):
    """One panel per check: its per-seed values (grey), mean and 95% interval (green when
    reproduced, red when not) and its bounds (dashed). Claims about time or accuracy get a first
    panel with every compared row's test accuracy against time, one line per seed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = list(dict.fromkeys(r for res in results for r in res["rows"]))
    about_time = any(ch["field"] in ("time_to_target_s", "final_test_accuracy") or ch.get("at_equal_samples")
                     for ch in claim["checks"])
    n = len(results) + about_time
    fig, axes = plt.subplots(1, n, figsize=(4.3 * n, 4), squeeze=False)
    axes = list(axes[0])
    if about_time:
        ax = axes.pop(0)
        for i, r in enumerate(rows):
            for k, s in enumerate(seeds):
                tl = timeline(out, r, s)
                if tl and "test_accuracy" in tl[0]:
                    ax.plot([p["time_s"] for p in tl], [p["test_accuracy"] for p in tl], color=f"C{i % 10}",
                            linewidth=1, alpha=0.7, label=r if k == 0 else None)
        ax.set_xscale("log")
        ax.set_xlabel("time (s, simulated; log scale)")
        ax.set_ylabel("test accuracy")
        ax.set_title("every row, every seed", fontsize=9)
        ax.legend(fontsize=7)
    for ax, ch, res in zip(axes, claim["checks"], results):
        ys = list(res["values"].values())
        ax.scatter([0] * len(ys), ys, color="grey", s=14, zorder=3, label="per seed")
        if res["mean"] is not None:
            ax.errorbar([0.25], [res["mean"]], yerr=[[res["half"] or 0], [res["half"] or 0]], fmt="o", capsize=6,
                        zorder=4, color="C2" if res["verdict"] == "reproduced" else "C3", label="mean, 95%")
        for b in ("at_least", "at_most"):
            if ch.get(b) is not None:
                ax.axhline(ch[b], color="black", linestyle="--", linewidth=1)
        ax.set_xlim(-0.5, 0.75)
        ax.set_xticks([])
        ax.set_title(ch["what"] + f"\n{res['verdict']}", fontsize=8)
    fig.suptitle(f"{claim['id']}: {claim['claim'][:110]}{'...' if len(claim['claim']) > 110 else ''}", fontsize=9)
    fig.tight_layout()
    fig.savefig(png, dpi=100)
    plt.close(fig)


def render(out):
    """Writes out/claims.md, out/claims.html and out/claims/<id>.png from the finished runs."""
    with open(os.path.join(out, "claims.json")) as f:
        c = json.load(f)
    seeds = c["seeds"]
    runs = summaries(out, c)
    os.makedirs(os.path.join(out, "claims"), exist_ok=True)
    md = [f"# Claims report", "",
          f"Each check over seeds {', '.join(map(str, seeds))}: the mean of its per-seed values with a 95% "
          "interval (Student's t). **reproduced**: the whole interval lies within the bounds; **direction "
          "only**: the interval is on the claim's side of no effect but not within the bounds; a seed "
          "without a value (a row that never reached its target) counts against the check.", "",
          "| claim | check | published | bounds | ours (mean +- 95%) | seeds | verdict |", "|---|---|---|---|---|---|---|"]
    sections, held = [], 0
    total = 0
    for cl in c["claims"]:
        results = [evaluate(ch, runs, seeds, out) for ch in cl["checks"]]
        png = os.path.join(out, "claims", f"{cl['id']}.png")
        plot(cl, results, seeds, out, png)
        rows_md = []
        for ch, res in zip(cl["checks"], results):
            ours = "-" if res["mean"] is None else \
                fmt(res["mean"]) + ("" if res["half"] is None else f" +- {fmt(res['half'], res['mean'])}")
            total += 1
            held += res["verdict"] == "reproduced"
            rows_md.append(f"| {cl['id']} | {ch['what']} | {ch.get('published', '')} | {bounds(ch)} | {ours} | "
                           f"{res['n']}/{res['of']} | {res['verdict']} |")
        md += rows_md
        per_seed = []
        for ch, res in zip(cl["checks"], results):
            per_seed.append(f"- {ch['what']}: " + ", ".join(f"seed {s} {fmt(v)}" for s, v in res["values"].items()))
        sections.append((cl, rows_md, per_seed, png))
    md[1:1] = ["", f"{held} of {total} checks reproduced."]
    info_path = os.path.join(out, "run-info.json")
    if os.path.exists(info_path):
        with open(info_path) as f:
            info = json.load(f)
        m, sec = divmod(int(info["wall_time_s"]), 60)
        md[3:3] = ["", f"{info['runs']} simulations ({len(c['rows'])} rows x {len(seeds)} seeds), {info['jobs']} at "
                       f"a time on {info['cpus']} CPUs: {m} min {sec} s of wall time."]
    if c.get("source"):
        md[3:3] = ["", f"Reproduce: `geotrain claims {c['source']} --out DIR -j 2`; `geotrain report DIR` redraws."]
    for cl, rows_md, per_seed, png in sections:
        md += ["", f"## {cl['id']}", "", f"**Claim.** {cl['claim']}", "", f"**Setting.** {cl.get('setting', '')}", "",
               f"![{cl['id']}](claims/{os.path.basename(png)})", ""] + per_seed
        if cl.get("notes"):
            md += ["", f"**Notes.** {cl['notes']}"]
    with open(os.path.join(out, "claims.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    body = []
    for line in md:  # a small Markdown subset: headings, tables, bullets, images, bold
        esc = html.escape(line)
        if line.startswith("# "):
            body.append(f"<h1>{esc[2:]}</h1>")
        elif line.startswith("## "):
            body.append(f"<h2>{esc[3:]}</h2>")
        elif line.startswith("|---"):
            continue
        elif line.startswith("| claim |"):
            body.append("<table><tr>" + "".join(f"<th>{x.strip()}</th>" for x in esc.strip("|").split("|")) + "</tr>")
        elif line.startswith("| "):
            body.append("<tr>" + "".join(f"<td>{x.strip()}</td>" for x in esc.strip("|").split("|")) + "</tr>")
        elif line.startswith("!["):
            name = line[line.index("(") + 1:-1]
            with open(os.path.join(out, name), "rb") as f:
                b64 = base64.b64encode(f.read()).decode()
            body.append(f"<img alt='{html.escape(name)}' src='data:image/png;base64,{b64}'>")
        elif line.startswith("- "):
            body.append(f"<li>{esc[2:]}</li>")
        elif line:
            body.append("<p>" + esc.replace("**", "") + "</p>")
        elif body and body[-1].startswith("<tr>"):
            body.append("</table>")
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>geotrain claims</title><style>"
            "body{font-family:sans-serif;margin:2em;max-width:1200px} table{border-collapse:collapse;font-size:13px}"
            "td,th{border:1px solid #ccc;padding:3px 6px} img{max-width:100%}</style></head><body>"
            + "\n".join(body) + "</body></html>")
    with open(os.path.join(out, "claims.html"), "w") as f:
        f.write(page)
    print(f"{held} of {total} checks reproduced: {os.path.join(out, 'claims.md')} and claims.html")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("file")
    r.add_argument("--out", required=True)
    r.add_argument("-j", type=int, default=os.cpu_count() or 1)
    r.add_argument("--seeds", default="")
    r.add_argument("--geotrain", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                                      "build", "geotrain"))
    d = sub.add_parser("render")
    d.add_argument("dir")
    a = ap.parse_args()
    try:
        if a.cmd == "run":
            sys.exit(run(a))
        if not os.path.exists(os.path.join(a.dir, "claims.json")):
            raise ClaimsError(f"{a.dir}: no claims.json (not a claims run)")
        render(a.dir)
    except ClaimsError as e:
        sys.stderr.write(f"error: {e}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
