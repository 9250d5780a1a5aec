// The run's referee, living beside the global server: evaluates the model every
// `every_rounds` rounds on the test set, keeps the timeline, and decides when the
// job ends (the core decides, not the runtime). Network byte counts come from a
// probe the runtime provides. Where no decision waits for an evaluation's metrics
// (no stop at the target), the evaluation runs deferred (core/base/parallel.h) on a
// copy of the model while the run goes on; every accessor waits for it first,
// so what the monitor reports never depends on how the work was spread.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/base/parallel.h"
#include "core/base/time.h"
#include "core/codec/stream_bytes.h"
#include "core/learners/learner.h"
#include "core/run/stop_spec.h"

namespace geotrain {

struct NetCounters {
  std::uint64_t wan_bytes = 0;
  std::uint64_t lan_bytes = 0;
};

struct TimelineRow {
  double time_s = 0;
  std::int64_t round = 0;
  // The learner's metrics on the test set, in Learner::metrics() order ([0] primary).
  std::vector<double> metrics;
  double loss = 0;  // mean training loss of the workers' steps in the last round
  NetCounters net;
  // Per tier and direction ("wan_push", ...), what the payloads sent by this
  // row's time cost dense and as sent: filled from the roles' stream histories
  // when the run's reports are assembled (core/job/role_stats.h).
  std::map<std::string, StreamBytes> streams;
  // DGT's K at this row's time, the mean over the senders that had pushed (0: none yet, or DGT off).
  double dgt_k = 0;
  // Training samples the workers had computed by this row's time (every worker's finished steps
  // x their batches): filled where the roles share one clock (simulation); -1 where unknown.
  std::int64_t samples = -1;
  // Where each DC holds its own files: the metrics on each DC's own test rows
  // (RunMonitor::evaluate_per_dc's order), beside `metrics` on all of them joined.
  std::vector<std::vector<double>> dc_metrics;
};

class RunMonitor {
 public:
  RunMonitor(const Learner& learner, const Dataset& test, StopSpec stop, EvalSpec eval,
             std::function<NetCounters()> probe);
  // After the global server applied `round` (1-based count of applied rounds).
  // Returns true when the job must stop.
  bool on_round(TimeNs now, std::int64_t round, const ParamSet& params, double train_loss);
  // End of run: evaluates the final model unless the last round was just evaluated.
  void finish(TimeNs now, std::int64_t round, const ParamSet& params, double train_loss);

  const std::vector<TimelineRow>& timeline() {
    settle();
    return timeline_;
  }
  // The model of the last evaluation (the final model once finish() ran); empty before any.
  const ParamSet& last_evaluated() {
    settle();
    return last_params_;
  }
  std::optional<double> time_to_target_s() {
    settle();
    return time_to_target_s_;
  }
  // Rounds the global server has applied so far (the last on_round's count).
  std::int64_t rounds_applied() const { return rounds_applied_; }
  // Why the job had to stop early ("" = it did not): a non-finite training loss.
  const std::string& failure() const { return failure_; }
  // Resuming from a checkpoint: the rows and time to target recorded so far.
  void restore(std::vector<TimelineRow> rows, std::optional<double> time_to_target_s);
  // Each DC's own test set (dataset.per_dc): every evaluation also gives each one's metrics.
  void evaluate_per_dc(std::vector<const Dataset*> tests) { dc_tests_ = std::move(tests); }
  // Called after each evaluation (progress display), on the monitor's own thread.
  void on_eval(std::function<void(const TimelineRow&)> fn) { on_eval_ = std::move(fn); }
  // Called when an evaluation is taken, at its time, before its metrics are known
  // (records that must be cut at the row's time).
  void on_row(std::function<void(double time_s)> fn) { on_row_ = std::move(fn); }
  // Waits for a deferred evaluation and records it.
  void settle();

 private:
  void evaluate_now(TimeNs now, std::int64_t round, const ParamSet& params, double train_loss);
  // The last row's metrics are in: the time to target, and the callback.
  void complete_row();
  // Has row reached the target (stop.target in its metric's better direction)?
  bool reached(const TimelineRow& row) const;
  const Learner& learner_;
  int target_index_ = -1;  // the target metric's place in the rows' metrics, -1: no target
  const Dataset& test_;
  StopSpec stop_;
  EvalSpec eval_;
  std::function<NetCounters()> probe_;
  std::function<void(const TimelineRow&)> on_eval_;
  std::function<void(double)> on_row_;
  std::vector<TimelineRow> timeline_;
  ParamSet last_params_;
  std::optional<double> time_to_target_s_;
  std::string failure_;
  std::int64_t rounds_applied_ = 0;
  double next_eval_s_ = 0;  // eval.every_s: the next evaluation is due at the first round ending after this
  // The last row's evaluation while it runs deferred, and where it writes.
  Deferred pending_;
  bool row_open_ = false;  // the last row waits for its metrics
  std::vector<double> pending_metrics_;
  std::vector<const Dataset*> dc_tests_;
  std::vector<std::vector<double>> pending_dc_metrics_;
  std::vector<std::vector<double>> per_dc(const ParamSet& p) const;
};

}  // namespace geotrain
