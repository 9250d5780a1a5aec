// One real-mode process: loads the scenario named by the config, builds this
// node's role from core/ (the same classes the simulator runs), runs it over a
// RealNode until the job ends, and writes OUT/nodes/<id>.json (node report).
#pragma once
#include <nlohmann/json.hpp>

#include "real/real_config.h"

namespace geotrain::real {

// Returns the process exit code (0 on a clean end of job).
int run_role(const RealConfig& cfg, NodeId id);

}  // namespace geotrain::real
