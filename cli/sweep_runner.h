// Runs a sweep's points as child processes of this binary (`geotrain sim` or
// `geotrain launch` per point, -j at a time), resumable and shardable, and
// writes results.csv. Layout: OUT/plan.json, OUT/runs/<point>/{summary.json,
// timeline.csv, log.txt}, OUT/results.csv.
#pragma once
#include <string>

#include "api/scenarios.h"

namespace geotrain::cli {

struct SweepOptions {
  int jobs = 1;
  int shard = 0, shards = 1;  // run points with index % shards == shard
  bool progress = true;
};

struct SweepOutcome {
  int ran = 0, skipped = 0, failed = 0;
};

// A point counts as finished when OUT/runs/<id>/summary.json parses; anything
// else in its directory is a broken run and is redone.
SweepOutcome run_sweep(const SweepPlan& plan, const std::string& out, const SweepOptions& opt);
// One row per finished point (all shards' work found in OUT/runs), point order.
// Returns the number of rows.
int write_results_csv(const SweepPlan& plan, const std::string& out);

}  // namespace geotrain::cli
