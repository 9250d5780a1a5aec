// The global server's watch on the job's progress: a job whose rounds stop (a
// fault nothing recovers from) ends with an error instead of hanging, after
// 12 x the failure timeout or 10 x the longest gap between rounds seen,
// whichever is longer, without a round. Fed once per heartbeat.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>

namespace geotrain::real {

class RoundWatchdog {
 public:
  using Clock = std::chrono::steady_clock;
  explicit RoundWatchdog(double failure_timeout_s) : failure_timeout_s_(failure_timeout_s) {}
  // A fault was seen (a node declared down or rejoined): what a stuck job is blamed on.
  void fault() { ++faults_; }
  // This node was itself stalled: the rounds it could not run are not counted.
  void restart_clock(Clock::time_point now) { last_progress_ = now; }
  // The rounds applied by `now`; returns why the job is stuck, or "".
  std::string check(std::int64_t rounds, Clock::time_point now);

 private:
  double failure_timeout_s_;
  int faults_ = 0;
  std::int64_t rounds_seen_ = -1;
  Clock::time_point last_progress_;
  double longest_gap_s_ = 0;
};

}  // namespace geotrain::real
