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
import re
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
CLAIM_KEYS = {"id", "claim", "setting", "notes", "checks"}
TOP_KEYS = {"$schema", "name", "description", "seeds", "rows", "claims"}
ROW_KEYS = {"scenario", "sets"}
DERIVED_FIELDS = {"min_dc_compute_busy", "steps_per_wan_sync"}
ID_PATTERN = re.compile(r"^[a-z0-9-]+$")


def summary_fields():
    """Every numeric field of summary.json by dotted path ('metrics.*.final' style paths keep their
    names: a part the schema leaves open, such as a metric's or a stream's name, matches any name),
    read off analysis/schemas/summary.schema.json."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas", "summary.schema.json")) as f:
        schema = json.load(f)
    out = []

    def walk(node, path):
        t = node.get("type")
        types = t if isinstance(t, list) else [t]
        if "number" in types or "integer" in types:
            out.append(path)
        for k, sub in node.get("properties", {}).items():
            walk(sub, f"{path}.{k}" if path else k)
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            walk(extra, f"{path}.*" if path else "*")

    walk(schema, "")
    return out


def numeric_field(name):
    """Whether a check may name `name`: a numeric summary field, or a derived one."""
    if name in DERIVED_FIELDS:
        return True
    parts = name.split(".")
    for f in summary_fields():
        fp = f.split(".")
        if len(fp) == len(parts) and all(a == "*" or a == b for a, b in zip(fp, parts)):
            return True
    return False


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def load(path):
    """The claims file, checked as a scenario is (scenarios/claims.schema.json): every error names
    the file, the JSON path and what was expected; every check names rows that exist and a numeric
    field, every row a scenario that exists, every claim id is a plain name (it names files)."""
    try:
        with open(path) as f:
            c = json.load(f)
    except OSError as e:
        raise ClaimsError(f"{path}: cannot read ({e.strerror})")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ClaimsError(f"{path}: malformed JSON ({getattr(e, 'msg', e)}"
                          f"{f' at line {e.lineno}' if hasattr(e, 'lineno') else ''})")
    if not isinstance(c, dict):
        raise ClaimsError(f"{path}: /: expected an object with rows and claims")

    def no_unknown(obj, keys, where):
        unknown = sorted(set(obj) - keys)
        if unknown:
            raise ClaimsError(f"{path}: {where}/{unknown[0]}: unknown key (valid here: {', '.join(sorted(keys))})")

    def string(obj, key, where, required=False):
        if key not in obj:
            if required:
                raise ClaimsError(f"{path}: {where}/{key}: missing (expected a string)")
            return
        if not isinstance(obj[key], str):
            raise ClaimsError(f"{path}: {where}/{key}: expected a string, got {json.dumps(obj[key])[:40]}")

    no_unknown(c, TOP_KEYS, "")
    string(c, "name", "")
    string(c, "description", "")
    base = os.path.dirname(os.path.abspath(path))
    if not isinstance(c.get("rows"), dict) or not c["rows"]:
        raise ClaimsError(f"{path}: /rows: expected an object of named rows")
    for name, r in c["rows"].items():
        if not re.match(r"^[A-Za-z0-9._-]+$", name) or name in (".", ".."):
            raise ClaimsError(f"{path}: /rows/{name}: a row's name must be letters, digits, '.', '-' and '_' (it "
                              f"names a directory under --out)")
        if not isinstance(r, dict) or not isinstance(r.get("scenario"), str):
            raise ClaimsError(f"{path}: /rows/{name}/scenario: expected a scenario file name")
        no_unknown(r, ROW_KEYS, f"/rows/{name}")
        r["scenario"] = os.path.normpath(os.path.join(base, r["scenario"]))
        if not os.path.isfile(r["scenario"]):
            raise ClaimsError(f"{path}: /rows/{name}/scenario: no such file {r['scenario']}")
        sets = r.get("sets", [])
        if not isinstance(sets, list) or not all(isinstance(s, str) and "=" in s for s in sets):
            raise ClaimsError(f"{path}: /rows/{name}/sets: expected [\"path=value\", ...]")
    if not isinstance(c.get("claims"), list) or not c["claims"]:
        raise ClaimsError(f"{path}: /claims: expected a list of claims")
    ids = set()
    for i, cl in enumerate(c["claims"]):
        where = f"/claims/{i}"
        if not isinstance(cl, dict):
            raise ClaimsError(f"{path}: {where}: expected an object with id, claim and checks")
        no_unknown(cl, CLAIM_KEYS, where)
        for key in ("id", "claim"):
            string(cl, key, where, required=True)
        for key in ("setting", "notes"):
            string(cl, key, where)
        if not ID_PATTERN.match(cl["id"]):
            raise ClaimsError(f"{path}: {where}/id: expected lower-case letters, digits and '-' (it names the "
                              f"claim's plot file), got {json.dumps(cl['id'])}")
        if cl["id"] in ids:
            raise ClaimsError(f"{path}: {where}/id: '{cl['id']}' is already the id of another claim")
        ids.add(cl["id"])
        if not isinstance(cl.get("checks"), list) or not cl["checks"]:
            raise ClaimsError(f"{path}: {where}/checks: expected a list of checks")
        for j, ch in enumerate(cl["checks"]):
            at = f"{where}/checks/{j}"
            if not isinstance(ch, dict):
                raise ClaimsError(f"{path}: {at}: expected an object")
            no_unknown(ch, CHECK_KEYS, at)
            string(ch, "what", at, required=True)
            string(ch, "published", at)
            kinds = [k for k in ("ratio", "difference", "value") if k in ch]
            if len(kinds) != 1:
                raise ClaimsError(f"{path}: {at}: expected exactly one of ratio, difference, value")
            if kinds[0] == "value":
                string(ch, "value", at)
                rows = [ch["value"]]
            else:
                rows = ch[kinds[0]]
                if not isinstance(rows, list) or len(rows) != 2 or not all(isinstance(r, str) for r in rows):
                    raise ClaimsError(f"{path}: {at}/{kinds[0]}: expected [row, row]")
            for r in rows:
                if r not in c["rows"]:
                    raise ClaimsError(f"{path}: {at}/{kinds[0]}: no row named '{r}' in /rows")
            if "at_least" not in ch and "at_most" not in ch:
                raise ClaimsError(f"{path}: {at}: expected at_least and/or at_most")
            for key in ("at_least", "at_most"):
                if key in ch and not is_number(ch[key]):
                    raise ClaimsError(f"{path}: {at}/{key}: expected a number, got {json.dumps(ch[key])[:40]}")
            if "at_least" in ch and "at_most" in ch and ch["at_least"] > ch["at_most"]:
                raise ClaimsError(f"{path}: {at}: at_least {ch['at_least']:g} is above at_most {ch['at_most']:g}: "
                                  f"no value can hold")
            if "at_equal_samples" in ch and not isinstance(ch["at_equal_samples"], bool):
                raise ClaimsError(f"{path}: {at}/at_equal_samples: expected true or false")
            string(ch, "field", at, required=True)
            if ch.get("at_equal_samples"):
                if not re.match(r"^[a-z0-9_]+$", ch["field"]):
                    raise ClaimsError(f"{path}: {at}/field: expected a timeline metric's name (test_accuracy, "
                                      f"test_loss, ...), got '{ch['field']}'")
            elif not numeric_field(ch["field"]):
                raise ClaimsError(f"{path}: {at}/field: '{ch['field']}' is not a numeric field of summary.json "
                                  f"(analysis/schemas/summary.schema.json: time_to_target_s, rounds, bytes.wan, "
                                  f"metrics.values.test_accuracy.final, compression.wan_push.ratio, ...; or "
                                  f"{', '.join(sorted(DERIVED_FIELDS))})")
    seeds = c.get("seeds", [1])
    if not isinstance(seeds, list) or not seeds or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0
                                                            for s in seeds):
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
        seeds = None
    if seeds is None or any(s < 0 for s in seeds) or len(set(seeds)) != len(seeds):
        raise ClaimsError(f"--seeds: expected distinct comma-separated non-negative integers, got '{args.seeds}'")
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
        if not all(is_number(v) for v in vs):
            raise ClaimsError(f"check '{check.get('what', '')}': field '{check['field']}' is not a number in every "
                              f"run (got {', '.join(json.dumps(v)[:20] for v in vs)})")
        if kind == "ratio":
            if vs[1] != 0:
                values[s] = vs[0] / vs[1]
        elif kind == "difference":
            values[s] = vs[0] - vs[1]
        else:
            values[s] = vs[0]
    res = {"kind": kind, "rows": rows, "values": values, "n": len(values), "of": len(seeds)}
    if not values:
        ran = [s for s in seeds if all(s in runs.get(r, {}) for r in rows)]
        absent = ran and not check.get("at_equal_samples") and all(
            field(runs[r][s], check["field"]) is None for s in ran for r in rows)
        why = f"no run has the field '{check['field']}'" if absent else "no seed has a value"
        res.update(mean=None, half=None, verdict=f"not reproduced ({why})")
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
        if not isinstance(cl.get("id"), str) or not ID_PATTERN.match(cl["id"]):  # an edited claims.json
            raise ClaimsError(f"{out}/claims.json: a claim id is not a plain name: {json.dumps(cl.get('id'))}")
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
        try:
            render(a.dir)
        except (KeyError, TypeError, ValueError, IndexError) as e:  # an edited or foreign claims.json
            raise ClaimsError(f"{a.dir}/claims.json: not a claims run's file ({type(e).__name__}: {e})") from None
    except ClaimsError as e:
        sys.stderr.write(f"error: {e}\n")
        sys.exit(2)
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted; finished runs are kept (a rerun resumes)\n")
        sys.exit(130)
    except Exception as e:  # never a traceback at a user: what failed, in one line
        sys.stderr.write(f"error: geotrain claims failed: {type(e).__name__}: {e}\n")
        sys.exit(1)


if __name__ == "__main__":
    main()
