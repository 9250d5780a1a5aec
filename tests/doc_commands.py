#!/usr/bin/env python3
"""Runs every `geotrain ...` command that README.md and docs/*.md show, so a
documented command that no longer works fails CI.

Commands are taken from shell code blocks (lines starting with geotrain or
build/geotrain) and from inline code spans that are whole commands (no "...",
no placeholders such as DIR or <name>). Each runs as written except:
  - output directories go under a scratch directory (the same one each time a
    document names it, so `report out/sweep` reads what the sweep wrote);
  - training stops after a few rounds: `--set stop.rounds=3` for sim and launch
    (one for a workload profile),
    the same added to every point of a sweep and every row of a claims file
    (copied to the scratch directory; claims with one seed, a sweep with two
    values of each axis);
  - a sim, launch, sweep or claims named in prose without --out gets one;
  - `regress --update` (it rewrites the committed expectations) is not run.

usage: doc_commands.py SOURCE_DIR GEOTRAIN [--list]
Exit 0 when every command exits 0, 1 otherwise.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

ROUNDS = 3
PLACEHOLDER = re.compile(r"\.\.\.|<|>|\b[A-Z][A-Z_]{1,}\b|\bN\b|\bS\b")


def documents(src):
    return [os.path.join(src, "README.md")] + sorted(glob.glob(os.path.join(src, "docs", "*.md")))


def commands(src):
    found = []
    for path in documents(src):
        in_block = False
        paragraph, start = [], 0  # prose, joined: an inline command may wrap onto the next line

        def spans():
            for span in re.findall(r"`((?:build/)?geotrain [^`]+)`", " ".join(paragraph)):
                found.append((path, start, " ".join(span.split())))
            paragraph.clear()

        with open(path) as f:
            for no, line in enumerate(f, 1):
                if line.startswith("```"):
                    spans()
                    in_block = not in_block
                    continue
                if in_block:
                    text = line.strip()
                    if re.match(r"(build/)?geotrain\s", text):
                        found.append((path, no, text.split("  #")[0].strip()))
                    continue
                if not line.strip():
                    spans()
                    continue
                if not paragraph:
                    start = no
                paragraph.append(line.strip())
        spans()
    runnable, seen = [], set()
    for path, no, cmd in found:
        cmd = cmd.split(" > ")[0].strip()  # `list --markdown > docs/reference.md`: the command, not the redirect
        words = cmd.split()
        if len(words) < 2 or words[1] not in ("sim", "launch", "sweep", "report", "validate", "list", "claims",
                                              "regress", "--help"):
            continue
        if PLACEHOLDER.search(cmd) or "--update" in cmd or cmd.endswith("--set") or cmd.endswith("--out"):
            continue
        if len(words) < 3 and words[1] not in ("list", "regress", "--help"):
            continue  # a subcommand named in prose ("geotrain launch"), not a command
        if cmd not in seen:
            seen.add(cmd)
            runnable.append((os.path.relpath(path, src), no, cmd))
    return runnable


def shortened_sweep(src, work, path):
    with open(os.path.join(src, path)) as f:
        s = json.load(f)
    s["base"] = os.path.normpath(os.path.join(src, os.path.dirname(path), s["base"]))
    s["sets"] = s.get("sets", []) + ["stop.rounds=%d" % ROUNDS]
    if "seeds" in s:
        s["seeds"] = s["seeds"][:1]
    s.pop("repeats", None)
    for axis in s.get("grid", {}):  # two values per axis and two zipped rows: the file's form, fewer runs
        s["grid"][axis] = s["grid"][axis][:2]
    for axis in s.get("zip", {}):
        s["zip"][axis] = s["zip"][axis][:2]
    out = os.path.join(work, "inputs", os.path.basename(path))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(s, f)
    return out


def shortened_claims(src, work, path):
    with open(os.path.join(src, path)) as f:
        c = json.load(f)
    c.pop("$schema", None)
    for row in c["rows"].values():
        row["scenario"] = os.path.normpath(os.path.join(src, os.path.dirname(path), row["scenario"]))
        row["sets"] = row.get("sets", []) + ["stop.rounds=%d" % ROUNDS]
    out = os.path.join(work, "inputs", os.path.basename(path))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(c, f)
    return out


def prepare(src, work, geotrain, cmd, outs):
    args = shlex.split(cmd)[1:]
    sub = args[0] if args else ""
    argv = [geotrain]
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--out", "-o") and i + 1 < len(args):
            outs.setdefault(args[i + 1], os.path.join(work, "out", args[i + 1].strip("/").replace("/", "_")))
            argv += [a, outs[args[i + 1]]]
            i += 2
            continue
        if sub == "report" and i == 1:
            if a not in outs:
                return None, "reports on %s, which no documented command before it writes" % a
            argv.append(outs[a])
        elif sub == "sweep" and i == 1:
            argv.append(shortened_sweep(src, work, a))
        elif sub == "claims" and i == 1:
            argv.append(shortened_claims(src, work, a))
        elif "*" in a:
            argv += sorted(glob.glob(os.path.join(src, a)))
        elif i > 0 and os.path.exists(os.path.join(src, a)):
            argv.append(os.path.join(src, a))
        else:
            argv.append(a)
        i += 1
    if sub in ("sim", "launch", "sweep", "claims") and not {"--out", "-o"} & set(args):
        outs.setdefault(cmd, os.path.join(work, "out", "run%d" % len(outs)))
        argv += ["--out", outs[cmd]]  # named in prose without one
    if sub in ("sim", "launch"):
        argv += ["-q", "--set", "stop.rounds=%d" % rounds_for(argv)]
    if sub == "claims":
        argv += ["--seeds", "1"]
    return argv, None


def rounds_for(argv):
    """ROUNDS, or one for a workload profile (its rounds move gigabytes: 8x8 ResNet-50 took 24 s
    for three in ns-3)."""
    for a in argv[2:]:
        if a.endswith(".json") and os.path.isfile(a):
            try:
                if json.load(open(a)).get("model", {}).get("kind") == "profile":
                    return 1
            except (ValueError, AttributeError):
                pass
            break
    return ROUNDS


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    src, geotrain = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    todo = commands(src)
    if "--list" in sys.argv:
        for path, no, cmd in todo:
            print("%s:%d: %s" % (path, no, cmd))
        return 0
    failed = 0
    outs = {}
    t_all = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="geotrain-doc-commands-") as work:
        for n, (path, no, cmd) in enumerate(todo, 1):
            argv, skip = prepare(src, work, geotrain, cmd, outs)
            if skip:
                print("[%d/%d] %s:%d: %s\n    FAIL: %s" % (n, len(todo), path, no, cmd, skip))
                failed += 1
                continue
            t0 = time.monotonic()
            try:
                p = subprocess.run(argv, cwd=src, capture_output=True, text=True, timeout=600)
                code, output = p.returncode, p.stdout + p.stderr
            except subprocess.TimeoutExpired:
                code, output = None, "timed out after 600 s"
            ok = code == 0
            failed += not ok
            print("[%d/%d] %s:%d: %s  (%.1f s) %s" % (n, len(todo), path, no, cmd, time.monotonic() - t0,
                                                     "ok" if ok else "FAIL: exit %s" % code))
            if not ok:
                print("    ran: " + " ".join(shlex.quote(a) for a in argv))
                print("    " + "\n    ".join(output.strip().splitlines()[-15:]))
    print("%d documented commands, %d failed, %.0f s" % (len(todo), failed, time.monotonic() - t_all))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
