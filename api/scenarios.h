// The public API, part 1 of 4: scenarios. What a front end (cli/, the Python
// package) reads and checks before it runs anything: a scenario from a file or
// a parsed document, with `--set` overrides ("a.b=v") applied first; its
// topology, its deployment (which node is which role), a sweep's points. Every
// reader throws ConfigError naming the file, the JSON path and what was expected.
//
// The API is these four headers (api/scenarios.h, api/runs.h, api/catalog.h,
// api/platform.h); cli/ includes nothing else of geotrain's (held by
// tests/check_layering.py). It owns no global state: runs on several threads of
// one process are independent (api/runs.h says what that means for ns-3).
#pragma once
#include "core/config/scenario.h"      // Scenario, load_scenario, read_scenario, load_topology, plan_deployment
#include "core/json/json_reader.h"     // ConfigError, JsonReader, load_json_file, apply_set
#include "core/sweep/sweep_plan.h"     // SweepPlan, load_sweep
#include "core/topology/deployment.h"  // Deployment, NodeSpec, Role
