// When a run stops and when it is evaluated: the scenario's `stop` and `eval`
// (read by core/config/scenario.cc), held by the RunMonitor (core/run/monitor.h).
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace geotrain {

struct StopSpec {
  std::int64_t rounds = 0;  // 0 = no limit
  double sim_time_s = 0;    // 0 = no limit
  // The target a run is timed to (`time_to_target_s`) and may stop at: a
  // metric of the learner (default: its primary one) and the value to reach,
  // in that metric's better direction. `target_accuracy: v` is the same as
  // `target: {metric: "test_accuracy", value: v}`.
  std::optional<double> target;
  std::string target_metric;  // resolved: a name from the learner's metrics
  bool stop_at_target = false;
};

struct EvalSpec {
  int every_rounds = 10;
  // > 0: evaluate at the first round ending at or after each multiple of this
  // many seconds instead (policies whose rounds differ in length, e.g. asp
  // where every push is a round, compare at the same times).
  double every_s = 0;
};

}  // namespace geotrain
