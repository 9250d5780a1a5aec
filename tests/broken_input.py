#!/usr/bin/env python3
"""Every geotrain subcommand on broken input, as a careless user would give it: each
must refuse it with one `error:` line and exit 2 (bad input), never a traceback, a
C++ `terminate`, a crash or exit 0. Small inputs only: nothing here trains.

usage: broken_input.py SOURCE_DIR GEOTRAIN
"""
import json
import os
import subprocess
import sys
import tempfile

BAD_SIGNS = ("Traceback (most recent call last)", "terminate called", "what():", "Segmentation fault",
             "filesystem error")


def main():
    src, geotrain = sys.argv[1], sys.argv[2]
    quickstart = os.path.join(src, "scenarios", "quickstart.json")
    failures, ran = [], 0
    with tempfile.TemporaryDirectory() as d:
        def write(name, text, mode="w"):
            p = os.path.join(d, name)
            with open(p, mode) as f:
                f.write(text)
            return p
        empty = write("empty.json", "")
        malformed = write("malformed.json", "{\"name\": ")
        array = write("array.json", "[]")
        garbage = write("garbage.bin", bytes(range(256)) * 3, "wb")
        run_dir = os.path.join(d, "not-a-run")
        os.makedirs(run_dir)
        write("not-a-run/summary.json", "{\"rounds\": \"many\"}")
        claim = {"name": "x", "rows": {"a": {"scenario": quickstart}},
                 "claims": [{"id": "c", "claim": "c", "checks": [{"what": "w", "value": "a", "field": "rounds",
                                                                "at_least": 1}]}]}

        def claims_with(edit):
            c = json.loads(json.dumps(claim))
            edit(c)
            return write("claims-%d.json" % len(os.listdir(d)), json.dumps(c))

        out = os.path.join(d, "out")
        cases = []
        for bad in (empty, malformed, array, garbage, "/nonexistent.json", d, "/dev/null"):
            cases += [["sim", bad, "--out", out], ["validate", bad], ["sweep", bad, "--out", out],
                      ["launch", bad, "--out", out], ["claims", bad, "--out", out], ["real", "--config", bad,
                                                                                      "--role", "0"]]
        cases += [
            ["profile", empty], ["profile", "/dev/null"], ["profile", garbage], ["profile", "/nonexistent.onnx"],
            ["regress", "--dir", "/nonexistent"], ["regress", "--dir", empty],
            ["report", "/nonexistent"], ["report", d], ["report", run_dir], ["collect", "--config", malformed],
            ["sim", quickstart, "--out", out, "--set", "no.such.path=1"],
            ["sim", quickstart, "--out", out, "--set", "batch_size=-3"],
            ["sim", quickstart, "--out", out, "--set", "model.kind=nonsense"],
            ["sweep", os.path.join(src, "examples", "sweeps", "arch-bandwidth.json"), "--out", out, "-j", "0"],
            ["launch", quickstart, "--out", out, "--kill-after", "5"],
            ["launch", quickstart, "--out", out, "--restart"],
            ["launch", quickstart, "--out", out, "--fault", "explode:dc-a/worker0@3"],
            ["claims", claims_with(lambda c: c["claims"][0].update(id="../../evil")), "--out", out],
            ["claims", claims_with(lambda c: c["claims"][0]["checks"][0].update(field="scenario_name")), "--out", out],
            ["claims", claims_with(lambda c: c["claims"][0]["checks"][0].update(field="roundz")), "--out", out],
            ["claims", claims_with(lambda c: c["claims"][0]["checks"][0].update(at_least=3, at_most=1)), "--out", out],
            ["claims", claims_with(lambda c: c["claims"][0]["checks"][0].update(at_least="3")), "--out", out],
            ["claims", claims_with(lambda c: c.update(seeds=[-1])), "--out", out],
            ["claims", claims_with(lambda c: None), "--out", out, "--seeds=-1"],
            ["claims", claims_with(lambda c: c["rows"].update({"../up": {"scenario": quickstart}})), "--out", out],
            ["list", "--nonsense"], ["nonsense"],
        ]
        env = dict(os.environ, GEOTRAIN_MEMORY_LIMIT_MB="abc")
        cases_env = [(["sim", quickstart, "--out", out], env)]
        for args, e in [(c, None) for c in cases] + cases_env:
            ran += 1
            try:
                p = subprocess.run([geotrain] + args, capture_output=True, text=True, timeout=60, env=e)
            except subprocess.TimeoutExpired:
                failures.append(f"{' '.join(args)}: still running after 60 s")
                continue
            text = p.stdout + p.stderr
            bad = [s for s in BAD_SIGNS if s in text]
            if bad or p.returncode != 2 or "error:" not in p.stderr:
                failures.append(f"geotrain {' '.join(args)}: exit {p.returncode}{', ' + bad[0] if bad else ''}: "
                                f"{text.strip()[-300:]}")
    for f in failures:
        print("FAIL:", f)
    print(f"{ran - len(failures)} of {ran} broken inputs refused with exit 2 and one error line")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
