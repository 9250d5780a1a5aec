// The progress line shown on stderr during long runs, fed by RunMonitor
// evaluations. On a terminal it rewrites one line; otherwise it prints at most
// one line every 5 s of wall time (logs stay short).
#pragma once
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

#include "core/run/monitor.h"

namespace geotrain {

class Progress {
 public:
  // When on, a line at least every 10 s of wall time: a long first round (a
  // large query batch, a large sketch) or a long gap between evaluations shows
  // the run is working, not hung.
  // `wan_label` names the byte figure shown (real mode shows what the global
  // server sent, the only counter it has at an evaluation).
  // `metric` names the rows' first (primary) metric, shown beside the training loss.
  Progress(bool on, std::string label, std::int64_t total_rounds, std::string metric, std::string wan_label = "wan");
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  void operator()(const TimelineRow& r);
  void done();

 private:
  void watch();
  double wall() const;
  bool on_, tty_;
  std::string label_, metric_, wan_label_;
  std::int64_t rounds_;
  std::chrono::steady_clock::time_point t0_;
  std::mutex mutex_;  // guards what follows, shared with the watcher
  std::condition_variable wake_;
  double last_ = -1e9, last_line_ = 0;
  std::int64_t last_round_ = 0;
  bool stop_ = false;
  std::thread watcher_;  // last: starts once the members it reads exist
};

}  // namespace geotrain
