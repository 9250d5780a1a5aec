#!/usr/bin/env python3
"""geotrain report: plots and one self-contained HTML page for a run or a sweep.

usage: report.py DIR
  DIR/summary.json            -> a single run
  DIR/results.csv + DIR/runs/ -> a sweep (every finished point)
Writes DIR/report/{accuracy_vs_time,accuracy_vs_wan_bytes,time_to_target,bytes,dc_fractions}.png (with runs over several
topologies also time_to_target_heatmap.png and time_to_target_matrix.csv) and
DIR/report/index.html (PNGs embedded, so the page is one file).
"""
import base64
import csv
import html
import json
import math
import os
import shutil
import sys
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402  (matplotlib's own dependency)


def read_timeline(path):
    """A run's timeline.csv as rows of floats ([] without one)."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [{k: float(v) for k, v in r.items()} for r in csv.DictReader(f)]


def load_runs(d):
    """[(label, summary, timeline rows)] for a run dir or a sweep dir."""
    def one(run_dir, label):
        path = os.path.join(run_dir, "summary.json")
        with open(path) as f:
            try:
                s = json.load(f)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}: malformed JSON ({e.msg} at line {e.lineno})") from None
        missing = [k for k in REQUIRED if not isinstance(s, dict) or k not in s]
        if missing:
            raise ValueError(f"{path}: not a geotrain summary (no {', '.join(missing)})")
        return label, s, read_timeline(os.path.join(run_dir, "timeline.csv"))

    if os.path.exists(os.path.join(d, "summary.json")):
        return [one(d, os.path.basename(os.path.normpath(d)))], None
    res = os.path.join(d, "results.csv")
    if not os.path.exists(res):
        sys.exit(f"error: {d}: neither summary.json (a run) nor results.csv (a sweep)")
    with open(res) as f:
        table = list(csv.DictReader(f))
    # Swept axes are the columns between "seed" and the summary fields.
    header = list(table[0].keys()) if table else []
    axes = header[header.index("seed") + 1:header.index("final_test_accuracy")] if header else []
    # A label names the axes that differ between points, each value in short (a codec's kind, a
    # topology's file name): the legend stays readable with JSON-valued axes.
    varying = [a for a in axes + ["seed"] if len({r[a] for r in table}) > 1]
    runs = []
    for r in table:
        label = r["point"] + " " + " ".join(f"{a.split('.')[-1]}={short(r[a])}" for a in varying)
        runs.append(one(os.path.join(d, "runs", r["point"]), label.strip()))
    return runs, table


def short(v):
    """A sweep axis value in short: {"kind": "bsp", "eps": 0.1} -> bsp(eps=0.1), {"wan_push": {"kind": "bsc"}}
    -> wan_push:bsc, {} -> default, "../topologies/x.json" -> x."""
    try:
        j = json.loads(v)
    except (json.JSONDecodeError, TypeError):
        j = v

    def s(x):
        if isinstance(x, dict):
            if not x:
                return "default"
            if "kind" in x:
                rest = ",".join(f"{k}={s(w)}" for k, w in x.items() if k != "kind")
                return str(x["kind"]) + (f"({rest})" if rest else "")
            return "+".join(f"{k}:{s(w)}" for k, w in x.items())
        if isinstance(x, str) and x.endswith(".json"):
            return os.path.basename(x)[:-5]
        return str(x)
    return s(j)


# What the plots and the table read from each summary (analysis/schemas/summary.schema.json).
REQUIRED = ["runtime", "architecture", "policy", "final_test_accuracy", "time_to_target_s", "target_accuracy",
            "sim_time_s", "wall_time_s", "rounds", "time_per_round_s", "bytes", "dcs"]

SUMMARY_COLUMNS = {"final_test_accuracy", "final_loss", "time_to_target_s", "sim_time_s", "wall_time_s", "rounds",
                   "time_per_round_s", "worker_steps", "wan_bytes_per_round", "events", "runtime", "architecture",
                   "policy", "wan_bytes", "lan_bytes"}


def codec_label(s):
    """The streams a run compresses, e.g. "wan_push=bsc wan_pull=sparse"; "dense" if none."""
    c = (s.get("scenario") or {}).get("compression") or {}
    parts = [f"{k}={(c.get(k) or {}).get('kind', 'none')}" for k in ("lan_push", "lan_pull", "wan_push", "wan_pull")
             if (c.get(k) or {}).get("kind", "none") != "none"]
    return " ".join(parts) or "dense"


def metric_names(runs):
    """The learner's metrics (summary.json `metrics`), primary first; test_accuracy for older summaries."""
    m = (runs[0][1].get("metrics") or {}) if runs else {}
    names = list(m.get("names") or (m.get("values") or {}).keys()) or ["test_accuracy"]
    primary = m.get("primary") or names[0]
    return [primary] + [n for n in names if n != primary]


def accuracy_plot(runs, x_of, xlabel, title, target=None, log_x=False, metric="test_accuracy"):
    """A metric (test accuracy unless told) per run against x_of(timeline row); one line per run."""
    fig, ax = plt.subplots(figsize=(11, 5))
    for i, (label, s, rows) in enumerate(runs):
        if rows:  # 10 colours, then the next line style: no two runs look alike
            ax.plot([x_of(r) for r in rows], [r.get(metric, float("nan")) for r in rows], marker=".", label=label,
                    color=f"C{i % 10}", linestyle=["-", "--", ":", "-."][i // 10 % 4])
    if target:
        ax.axhline(target, color="grey", linestyle="--", linewidth=1, label=f"target {target}")
    xs = [x_of(r) for _, _, rows in runs for r in rows if x_of(r) > 0]
    if log_x or (xs and max(xs) / min(xs) > 1000):  # rows hundreds of times apart: each visible
        ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(metric.replace("_", " "))
    ax.set_title(title)
    n = len(ax.get_legend_handles_labels()[0])
    if n:  # below the axes: never over a curve, and long labels keep the plot's width
        ncol = 1 if n <= 10 else 2
        fig.set_size_inches(11, 5 + 0.16 * math.ceil(n / ncol))
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.12), ncol=ncol, frameon=False)
    return fig


def save(fig, out, name):
    path = os.path.join(out, name)
    with warnings.catch_warnings():  # many long labels: tight_layout gives up on a margin, the plot is still drawn
        warnings.simplefilter("ignore", UserWarning)
        fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def num(v, fmt):
    """A number formatted, or empty for a missing one (null in a diverged run's summary)."""
    return "" if v is None else format(v, fmt)


def heat_map(runs, topologies, target, out):
    """Mean time to target per (architecture/policy, topology; columns in the runs' order, a sweep's
    axis order) as a heat map, the best (lowest) of each
    column boxed, cells never reached grey; the same matrix as time_to_target_matrix.csv. Returns the PNG."""
    cells = {}
    for _, s, _ in runs:
        key = (f"{s['architecture']}/{s['policy']}", s["scenario"]["topology"].get("name", ""))
        cells.setdefault(key, []).append(s.get("time_to_target_s"))
    policies = sorted({p for p, _ in cells})
    value = {}
    for k, v in cells.items():
        reached = [x for x in v if x is not None]
        value[k] = sum(reached) / len(reached) if reached else None
    with open(os.path.join(out, "time_to_target_matrix.csv"), "w") as f:
        f.write("policy," + ",".join(topologies) + "\n")
        for p in policies:
            f.write(p + "," + ",".join("" if value.get((p, t)) is None else f"{value[(p, t)]:.1f}" for t in topologies)
                    + "\n")
    grid = [[value.get((p, t)) for t in topologies] for p in policies]
    finite = [v for row in grid for v in row if v is not None]
    fig, ax = plt.subplots(figsize=(1.6 * len(topologies) + 2.5, 0.45 * len(policies) + 1.8))
    cmap = plt.get_cmap("viridis_r").copy()
    cmap.set_bad("#d0d0d0")
    data = np.ma.masked_invalid(np.array([[np.nan if v is None else v for v in row] for row in grid], dtype=float))
    im = ax.imshow(data, cmap=cmap, aspect="auto", vmin=min(finite) if finite else 0, vmax=max(finite) if finite else 1)
    for j, t in enumerate(topologies):
        col = [(grid[i][j], i) for i in range(len(policies)) if grid[i][j] is not None]
        best = min(col)[1] if col else None
        for i in range(len(policies)):
            v = grid[i][j]
            light = v is None or (finite and v < (min(finite) + max(finite)) / 2)  # viridis_r: low is yellow
            ax.text(j, i, "-" if v is None else f"{v:.0f}", ha="center", va="center", fontsize=8,
                    color="black" if light else "white")
            if i == best:
                ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, fill=False, edgecolor="red", linewidth=2.5))
    ax.set_xticks(range(len(topologies)), topologies, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(policies)), policies, fontsize=8)
    ax.set_title(f"Time to {target} (s); grey: not reached; red box: best of the column")
    fig.colorbar(im, ax=ax, label="seconds")
    return save(fig, out, "time_to_target_heatmap.png")


def render(d, runs, out):
    """Writes every PNG and index.html into out."""
    pngs = []

    names = metric_names(runs)
    primary = names[0]
    t = (runs[0][1].get("target") or {}) if runs else {}
    target = t.get("value") if t.get("metric") == primary else None
    # The metric time_to_target_s follows (any metric: stop.target), for the titles; older summaries: accuracy.
    goal = f"{t.get('metric', 'test_accuracy').replace('_', ' ')} {t.get('value', runs[0][1].get('target_accuracy') if runs else '')}"
    # The primary metric keeps the classifiers' file names (accuracy_vs_*.png); every other one its own.
    stem = "accuracy" if primary == "test_accuracy" else primary
    title = "Accuracy" if primary == "test_accuracy" else primary.replace("_", " ")
    fig = accuracy_plot(runs, lambda r: r["time_s"], "time (s, simulated or elapsed)", f"{title} vs time",
                        target=target, metric=primary)
    pngs.append((f"{title} vs time, per run", save(fig, out, f"{stem}_vs_time.png")))
    for m in names[1:]:
        fig = accuracy_plot(runs, lambda r: r["time_s"], "time (s, simulated or elapsed)",
                            f"{m.replace('_', ' ')} vs time", metric=m)
        pngs.append((f"{m.replace('_', ' ')} vs time, per run", save(fig, out, f"{m}_vs_time.png")))

    # Where each data centre holds its own files (dataset.per_dc): the primary metric on each DC's
    # own test rows (timeline.csv's <dc>:<metric> columns) beside the job-wide one, per run.
    per_dc = []
    for label, s, rows in runs:
        dcs = list((s.get("per_dc_metrics") or {}).keys())
        if not dcs or not rows:
            continue
        per_dc.append((f"{label} all DCs", s, rows))
        for dc in dcs:
            key = f"{dc}:{primary}"
            per_dc.append((f"{label} {dc}", s, [{"time_s": r["time_s"], primary: r.get(key, float("nan"))}
                                                 for r in rows]))
    if per_dc:
        fig = accuracy_plot(per_dc, lambda r: r["time_s"], "time (s, simulated or elapsed)",
                            f"{title} on each data centre's own test rows", target=target, metric=primary)
        pngs.append((f"{title} per data centre (its own test rows) and job-wide", save(fig, out, f"{stem}_per_dc.png")))

    # Accuracy against the bytes that crossed the WAN: what a codec buys (labelled by codec when
    # the runs compress anything).
    compressed = any(codec_label(s) != "dense" for _, s, _ in runs)
    fig = accuracy_plot([(label.split(" ")[0] + " " + codec_label(s) if compressed else label, s,
                          rows if any(r.get("wan_bytes", 0) > 0 for r in rows) else []) for label, s, rows in runs],
                        lambda r: r["wan_bytes"] / 1e6, "WAN bytes so far (MB, log scale)", f"{title} vs WAN bytes",
                        log_x=True, metric=primary)
    pngs.append((f"{title} vs WAN bytes, per run", save(fig, out, f"{stem}_vs_wan_bytes.png")))

    # Time to target: mean per (architecture, policy) group, per topology when the runs span several
    # (a policy comparison over two WANs); runs that never reached it are counted apart.
    topologies = list(dict.fromkeys((s["scenario"].get("topology") or {}).get("name", "") for _, s, _ in runs))
    groups = {}
    for label, s, rows in runs:
        key = f"{s['architecture']}/{s['policy']}"
        if len(topologies) > 1:
            key = f"{s['scenario']['topology'].get('name', '')}\n{key}"
        groups.setdefault(key, []).append(s.get("time_to_target_s"))
    fig, ax = plt.subplots(figsize=(max(7, 0.9 * len(groups)), 4))
    names = sorted(groups)
    means = [sum(v for v in groups[n] if v is not None) / max(1, sum(v is not None for v in groups[n])) for n in names]
    bars = ax.bar(names, means, color="#4878a8")
    for b, n in zip(bars, names):
        missed = sum(v is None for v in groups[n])
        ax.annotate(f"{len(groups[n]) - missed}/{len(groups[n])} reached", (b.get_x() + b.get_width() / 2, b.get_height()),
                    ha="center", va="bottom", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    ax.set_ylabel("mean time to target (s)")
    ax.set_title(f"Time to {goal} by architecture/policy")
    pngs.append(("Time to target per policy", save(fig, out, "time_to_target.png")))

    if len(topologies) > 1:
        pngs.append(("Time to target: policy x topology (best per column boxed)",
                     heat_map(runs, topologies, goal, out)))

    fig, ax = plt.subplots(figsize=(9, 4.5))
    xs = range(len(runs))
    ax.bar([x - 0.2 for x in xs], [s["bytes"]["wan"] / 1e6 for _, s, _ in runs], width=0.4, label="WAN")
    ax.bar([x + 0.2 for x in xs], [s["bytes"]["lan"] / 1e6 for _, s, _ in runs], width=0.4, label="LAN")
    ax.set_xticks(list(xs))
    ax.set_xticklabels([l for l, _, _ in runs], rotation=60, ha="right", fontsize=7)
    ax.set_ylabel("MB on the wire")
    sizes = [v for _, s, _ in runs for v in (s["bytes"]["wan"], s["bytes"]["lan"]) if v > 0]
    if sizes and max(sizes) / min(sizes) > 50:  # log only when linear would flatten the small bars to nothing
        ax.set_yscale("log")
    ax.set_title("WAN and LAN bytes per run")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))  # outside: never over a bar
    pngs.append(("WAN/LAN bytes per run", save(fig, out, "bytes.png")))

    # One bar per DC and architecture/policy: averaging hips and flat runs together would hide their difference.
    dcs = {}
    for _, s, _ in runs:
        for dc in s["dcs"]:
            if dc["workers"] > 0:
                key = f"{dc['name']}\n{s['architecture']}/{s['policy']}"
                dcs.setdefault(key, []).append((dc["compute_busy_fraction"], dc["blocked_fraction"]))
    fig, ax = plt.subplots(figsize=(max(7, 1.2 * len(dcs)), 4))
    names = sorted(dcs)
    busy = [sum(b for b, _ in dcs[n]) / len(dcs[n]) for n in names]
    blocked = [sum(k for _, k in dcs[n]) / len(dcs[n]) for n in names]
    ax.bar(names, busy, label="compute busy", color="#59a14f")
    ax.bar(names, blocked, bottom=busy, label="blocked on sync", color="#e15759")
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("fraction of run time (mean over runs)")
    ax.set_title("Per-DC compute-busy and blocked fractions, by architecture/policy")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    pngs.append(("Per-DC busy/blocked", save(fig, out, "dc_fractions.png")))

    cols = ["run", "runtime", "architecture", "policy", "final_test_accuracy", "time_to_target_s", "sim_time_s",
            "rounds", "time_per_round_s", "local steps per push", "staleness mean/max", "WAN syncs", "WAN MB", "LAN MB",
            "wall_time_s"]
    rows_html = []
    for label, s, _ in runs:
        workers = s.get("workers") or []
        steps_per_push = [w["steps_per_push"] for w in workers if w.get("pushes")]
        stale = s.get("staleness") or {}
        vals = [label, s["runtime"], s["architecture"], s["policy"], num(s["final_test_accuracy"], ".4f"),
                num(s.get("time_to_target_s"), ".2f"), f"{s['sim_time_s']:.2f}",
                str(s["rounds"]), f"{s['time_per_round_s']:.4f}",
                (f"{sum(steps_per_push) / len(steps_per_push):.2f} ({min(steps_per_push):.1f}-{max(steps_per_push):.1f})"
                 if steps_per_push else "-"),
                f"{stale.get('mean', 0):.2f}/{stale.get('max', 0)}" if stale else "-", str(s.get("wan_syncs", "-")),
                f"{s['bytes']['wan'] / 1e6:.2f}", f"{s['bytes']['lan'] / 1e6:.2f}", f"{s['wall_time_s']:.2f}"]
        rows_html.append("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in vals) + "</tr>")
    imgs = []
    for title, path in pngs:
        with open(path, "rb") as f:
            b64 = base64.b64encode(f.read()).decode()
        imgs.append(f"<h2>{html.escape(title)}</h2><img alt='{html.escape(title)}' src='data:image/png;base64,{b64}'>")
    page = f"""<!doctype html><html><head><meta charset="utf-8"><title>geotrain report: {html.escape(d)}</title>
<style>body{{font-family:sans-serif;margin:2em;max-width:1100px}} table{{border-collapse:collapse;font-size:13px}}
td,th{{border:1px solid #ccc;padding:3px 6px;text-align:right}} td:first-child{{text-align:left}} img{{max-width:100%}}</style>
</head><body><h1>geotrain report</h1><p>{len(runs)} run(s) from <code>{html.escape(os.path.abspath(d))}</code></p>
<h2>Summary</h2><table><tr>{"".join(f"<th>{c}</th>" for c in cols)}</tr>{"".join(rows_html)}</table>
{"".join(imgs)}</body></html>"""
    with open(os.path.join(out, "index.html"), "w") as f:
        f.write(page)
    return len(pngs)


def main():
    """Renders into DIR/report.tmp, then replaces DIR/report: a failure leaves the old
    report (or none) and one error line, never a half-written report."""
    d = sys.argv[1]
    out = os.path.join(d, "report")
    tmp = out + ".tmp"
    try:
        runs, _ = load_runs(d)
        if not runs:
            raise ValueError("no finished runs to report")
        shutil.rmtree(tmp, ignore_errors=True)
        os.makedirs(tmp)
        n = render(d, runs, tmp)
    except Exception as e:  # one line for the user, whatever broke
        shutil.rmtree(tmp, ignore_errors=True)
        what = str(e) or type(e).__name__
        if isinstance(e, (KeyError, TypeError)):  # a field of the wrong shape
            what = f"{d}: not a geotrain summary ({type(e).__name__}: {e})"
        sys.stderr.write(f"error: {what}\n")
        # What the directory holds is the user's input (exit 2); anything else failed here (exit 1).
        sys.exit(2 if isinstance(e, (KeyError, TypeError, ValueError, OSError)) else 1)
    shutil.rmtree(out, ignore_errors=True)
    os.replace(tmp, out)
    print(f"{len(runs)} run(s): {out}/index.html and {n} PNGs")


if __name__ == "__main__":
    main()
