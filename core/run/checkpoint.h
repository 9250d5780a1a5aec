// What the global server persists so a restarted server loses no acknowledged
// update: a snapshot every N rounds plus a log of every round applied since,
// each logged before the round is acknowledged. Recovery = snapshot + replay of
// the logged mean updates through the restored optimiser (exact, since the
// optimiser is deterministic). Storage is behind this interface (real/ keeps it
// in files); core/ decides what and when.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "core/optim/optimizer.h"
#include "core/payload/params.h"
#include "core/run/monitor.h"

namespace geotrain {

struct ServerSnapshot {
  std::int64_t rounds = 0;
  ParamSet params;
  OptimizerState optimizer;
  std::vector<TimelineRow> timeline;
  std::optional<double> time_to_target_s;
};

struct LoggedRound {
  std::int64_t round = 0;  // 0-based index of the applied round
  // What the round applied: the mean update (the learner's Apply::kMeanThenOptimizer),
  // or the merged update of `contributors` steps that Learner::apply turned into the model.
  ParamSet mean_update;
  int contributors = 0;  // 0: mean_update is a mean
  double train_loss = 0;
  std::optional<TimelineRow> evaluation;  // when the round was evaluated
};

class CheckpointStore {
 public:
  virtual ~CheckpointStore() = default;
  // Durable (survives the process) when it returns.
  virtual void log_round(const LoggedRound& r) = 0;
  // Replaces the snapshot and empties the log.
  virtual void save(const ServerSnapshot& s) = 0;
  virtual std::optional<ServerSnapshot> load_snapshot() = 0;
  virtual std::vector<LoggedRound> load_log() = 0;
};

}  // namespace geotrain
