#!/usr/bin/env python3
"""Checks that the published JSON Schemas and the C++ loader agree.

1. Every shipped scenarios/*.json and topologies/*.json validates against its schema
   and is accepted by `geotrain validate`; so do the example sweeps and deployment configs.
2. Every tests/data/bad/*.json that is well-formed JSON is rejected by the schema
   AND by `geotrain validate` (exit 2).

usage: check_schemas.py SOURCE_DIR GEOTRAIN_BINARY
"""
import glob
import json
import os
import subprocess
import sys

import jsonschema

TOPO_REF = "../topologies/topology.schema.json"  # as scenario.schema.json names it
from jsonschema.validators import validator_for


def load(path):
    with open(path) as f:
        return json.load(f)


def main():
    src, binary = sys.argv[1], sys.argv[2]
    topo_schema = load(os.path.join(src, "topologies/topology.schema.json"))
    scen_schema = load(os.path.join(src, "scenarios/scenario.schema.json"))
    # The scenario schema refers to the topology schema by relative path.
    try:
        from referencing import Registry, Resource
        registry = Registry().with_resource(
            TOPO_REF, Resource.from_contents(topo_schema))
        make = lambda schema: validator_for(schema)(schema, registry=registry)
    except ImportError:  # Debian 12's jsonschema 4.10: RefResolver
        store = {TOPO_REF: topo_schema}
        make = lambda schema: validator_for(schema)(
            schema, resolver=jsonschema.RefResolver.from_schema(schema, store=store))
    for s in (topo_schema, scen_schema):
        validator_for(s).check_schema(s)
    topo_v, scen_v = make(topo_schema), make(scen_schema)

    failures = []

    def cxx_accepts(path):
        r = subprocess.run([binary, "validate", path], capture_output=True, text=True)
        return r.returncode, (r.stdout + r.stderr).strip()

    shipped = sorted(glob.glob(os.path.join(src, "scenarios/*.json")) +
                     glob.glob(os.path.join(src, "topologies/*.json")))
    shipped += sorted(glob.glob(os.path.join(src, "scenarios/regress/*.json")))
    shipped += sorted(glob.glob(os.path.join(src, "scenarios/fidelity/*.json")))
    shipped += sorted(glob.glob(os.path.join(src, "scenarios/headline/*.json")))
    shipped = [p for p in shipped if not p.endswith(".schema.json") and not p.endswith(".expected.json")]
    for p in shipped:
        doc = load(p)
        v = topo_v if "dcs" in doc else scen_v
        errs = list(v.iter_errors(doc))
        if errs:
            failures.append(f"{p}: schema rejects a shipped file: {errs[0].message}")
        rc, out = cxx_accepts(p)
        if rc != 0:
            failures.append(f"{p}: geotrain validate rejects a shipped file: {out}")
    # Example files with their own schema; `validate` reads deployments, not sweeps (the sweep
    # command checks those, with every point, before running).
    for schema_file, pattern, kind, cxx in (("sweep.schema.json", "examples/sweeps/*.json", "sweep", False),
                                            ("claims.schema.json", "examples/claims/*.json", "claims", False),
                                            ("deployment.schema.json", "examples/multi-host/*.json", "deployment", True),
                                            ("profile.schema.json", "examples/profiles/*.json", "profile", False)):
        schema = load(os.path.join(src, "scenarios", schema_file))
        validator_for(schema).check_schema(schema)
        for p in sorted(glob.glob(os.path.join(src, pattern))):
            errs = list(validator_for(schema)(schema).iter_errors(load(p)))
            if errs:
                failures.append(f"{p}: {kind} schema rejects a shipped file: {errs[0].message}")
            rc, out = cxx_accepts(p) if cxx else (0, "")
            if rc != 0:
                failures.append(f"{p}: geotrain validate rejects a shipped {kind}: {out}")
    bad = sorted(glob.glob(os.path.join(src, "tests/data/bad/*.json")))
    checked_bad = 0
    for p in bad:
        try:
            doc = load(p)
        except json.JSONDecodeError:
            continue  # malformed on purpose: no schema applies
        # Inline topologies are checked by the scenario schema; referenced files by path.
        base = os.path.dirname(p)
        schema_ok = not list(scen_v.iter_errors(doc))
        if schema_ok and isinstance(doc.get("topology"), str):
            tp = os.path.normpath(os.path.join(base, doc["topology"]))
            schema_ok = os.path.exists(tp) and not list(topo_v.iter_errors(load(tp)))
        rc, out = cxx_accepts(p)
        checked_bad += 1
        if schema_ok:
            failures.append(f"{p}: schema accepts a file the loader must reject")
        if rc != 2:
            failures.append(f"{p}: geotrain validate exit {rc}, expected 2: {out}")
    # A real run's summary.json against the published result schema.
    import tempfile
    with tempfile.TemporaryDirectory() as out:
        scen = os.path.join(src, "scenarios/quickstart.json")
        r = subprocess.run([binary, "sim", scen, "--out", out, "-q", "--set", "stop.rounds=3",
                            "--set", 'dataset={"kind":"synthetic"}', "--set", 'model={"kind":"softmax"}'],
                           capture_output=True, text=True)
        if r.returncode != 0:
            failures.append(f"geotrain sim failed: {r.stderr}")
        else:
            summary_schema = load(os.path.join(src, "analysis/schemas/summary.schema.json"))
            errs = list(validator_for(summary_schema)(summary_schema).iter_errors(load(os.path.join(out, "summary.json"))))
            if errs:
                failures.append(f"summary.json does not match its schema: {errs[0].message} at {list(errs[0].path)}")
    print(f"checked {len(shipped)} shipped files, {checked_bad} bad files and one summary.json")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
