// Runs one scenario in ns-3 from start to end and returns its RunResult.
// ns-3's simulator is process-global: one run at a time per process; the runner
// calls Simulator::Destroy() before returning, so runs can follow each other.
#pragma once
#include "core/config/scenario.h"
#include "core/results.h"
#include "core/trace.h"

namespace geotrain::sim {

struct SimOptions {
  bool progress = false;     // progress lines on stderr
  Tracer* tracer = nullptr;  // optional protocol observer
  std::string save_model;    // non-empty: write the final model here (core/params_file.h)
  int threads = 1;           // training steps' maths run on this many threads (sim/compute_pool.h); the
                             // results are the same for any number
};

RunResult run_simulation(const Scenario& sc, const SimOptions& opt = {});

}  // namespace geotrain::sim
