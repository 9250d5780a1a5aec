// SIGINT/SIGTERM caught for the lifetime of a StopSignals, so a long-running
// parent (launch, sweep) can end the orderly way: stop its children, keep what
// finished, remove what it set up. The previous handlers come back on
// destruction. One at a time per process.
#pragma once
#include <csignal>

namespace geotrain::real {

class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  // The signal caught so far (0 = none).
  static int caught();

 private:
  struct sigaction old_int_ {
  }, old_term_{};
};

}  // namespace geotrain::real
