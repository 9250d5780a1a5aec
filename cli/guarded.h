// Runs a subcommand body: input errors (ConfigError) exit 2, other failures
// exit 1, each as one line on stderr.
#pragma once
#include <cstdio>
#include <exception>

#include "api/runs.h"
#include "api/scenarios.h"

namespace geotrain::cli {

void set_exit_code(int code);

template <class Fn>
void guarded(Fn fn) {
  try {
    set_exit_code(fn());
  } catch (const ConfigError& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    set_exit_code(2);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    set_exit_code(1);
  }
}

// After a run's outputs are written: a run that ended before its stop
// condition (RunResult::error) is a failure, one line on stderr, exit 1.
inline int run_exit_code(const RunResult& r, const std::string& out) {
  if (r.error.empty()) return 0;
  std::fflush(stdout);  // the run's own line first
  std::fprintf(stderr, "error: %s (partial results in %s/summary.json)\n", r.error.c_str(), out.c_str());
  return 1;
}

}  // namespace geotrain::cli
