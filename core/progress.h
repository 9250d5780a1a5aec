// The progress line shown on stderr during long runs, fed by RunMonitor
// evaluations. On a terminal it rewrites one line; otherwise it prints at most
// one line every 5 s of wall time (logs stay short).
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

#include "core/monitor.h"

namespace geotrain {

class Progress {
 public:
  // `wan_label` names the byte figure shown (real mode shows what the global
  // server sent, the only counter it has at an evaluation).
  // `metric` names the rows' first (primary) metric, shown beside the training loss.
  Progress(bool on, std::string label, std::int64_t total_rounds, std::string metric, std::string wan_label = "wan");
  void operator()(const TimelineRow& r);
  void done();

 private:
  bool on_, tty_;
  std::string label_, metric_, wan_label_;
  std::int64_t rounds_;
  std::chrono::steady_clock::time_point t0_;
  double last_ = -1e9;
};

}  // namespace geotrain
