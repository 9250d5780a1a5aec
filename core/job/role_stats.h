// One assembly of what the roles report (Actor::report) into a run's results,
// shared by both runtimes: per-DC and per-worker compute-busy and blocked
// fractions, steps, pushes and steps per push, worker steps, global rounds and
// the staleness of applied pushes. The simulator hands over its actors'
// reports; real mode the ones its node processes wrote.
#pragma once
#include <nlohmann/json.hpp>
#include <vector>

#include "core/config/scenario.h"
#include "core/run/results.h"
#include "core/topology/deployment.h"

namespace geotrain {

struct RoleReport {
  nlohmann::json report;  // Actor::report(); null when the node's report is lost
  double run_s = 0;       // how long the node ran (the fractions' denominator)
};

// `reports` by node id. Sets r->dcs, r->workers, r->worker_steps, r->staleness,
// r->compression, each r->timeline row's streams (so r->timeline must be set
// first) and, when the global server reported, r->rounds.
void assemble_role_reports(const Scenario& sc, const Deployment& dep, const std::vector<RoleReport>& reports,
                           RunResult* r);

}  // namespace geotrain
