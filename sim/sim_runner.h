// Runs one scenario in simulation from start to end and returns its RunResult.
// Runs may share a process, on several threads at once: a flow-model run has its
// own event loop, threads and state; ns-3's simulator is process-global, so a
// packet-level run waits for the one before it to end (sim/network_model.h).
#pragma once
#include "core/config/scenario.h"
#include "core/run/results.h"
#include "core/runtime/trace.h"

namespace geotrain::sim {

struct SimOptions {
  bool progress = false;       // progress lines on stderr
  Tracer* tracer = nullptr;    // optional protocol observer
  std::string save_model;      // non-empty: write the final model here (core/payload/params_file.h)
  double memory_limit_mb = 0;  // refuse a run estimated above it (0: 80% of the available memory)
  int threads = 1;             // training steps' maths run on this many threads (sim/compute_pool.h); the
                               // results are the same for any number
};

RunResult run_simulation(const Scenario& sc, const SimOptions& opt = {});

}  // namespace geotrain::sim
