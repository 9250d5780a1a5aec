#include "core/run/monitor.h"

#include <cmath>

namespace geotrain {

RunMonitor::RunMonitor(const Learner& learner, const Dataset& test, StopSpec stop, EvalSpec eval,
                       std::function<NetCounters()> probe)
    : learner_(learner), test_(test), stop_(stop), eval_(eval), probe_(std::move(probe)) {
  const auto& m = learner_.metrics();
  for (std::size_t i = 0; stop_.target && i < m.size(); ++i)
    if (m[i].name == stop_.target_metric) target_index_ = int(i);
}

bool RunMonitor::reached(const TimelineRow& row) const {
  if (target_index_ < 0 || std::size_t(target_index_) >= row.metrics.size()) return false;
  const double v = row.metrics[std::size_t(target_index_)];
  return learner_.metrics()[std::size_t(target_index_)].higher_is_better ? v >= *stop_.target : v <= *stop_.target;
}

void RunMonitor::evaluate_now(TimeNs now, std::int64_t round, const ParamSet& params, double train_loss) {
  settle();
  TimelineRow row;
  row.time_s = to_seconds(now);
  row.round = round;
  last_params_ = params;
  row.loss = train_loss;
  if (probe_) row.net = probe_();
  timeline_.push_back(row);
  if (eval_.every_s > 0) next_eval_s_ = (std::floor(row.time_s / eval_.every_s) + 1) * eval_.every_s;
  if (on_row_) on_row_(row.time_s);
  if (stop_.stop_at_target) {  // whether to go on depends on these metrics: now
    timeline_.back().metrics = learner_.evaluate(last_params_, test_);
    timeline_.back().dc_metrics = per_dc(last_params_);
    return complete_row();
  }
  // Nothing reads them before settle(): last_params_ and the metrics' slot stay untouched till then.
  pending_ = Deferred([this] {
    pending_metrics_ = learner_.evaluate(last_params_, test_);
    pending_dc_metrics_ = per_dc(last_params_);
  });
  row_open_ = true;
  if (pending_.done()) settle();  // it ran at once (no thread lent): the row is complete now
}

void RunMonitor::settle() {
  if (!row_open_) return;
  row_open_ = false;
  pending_.wait();
  timeline_.back().metrics = std::move(pending_metrics_);
  pending_metrics_.clear();
  timeline_.back().dc_metrics = std::move(pending_dc_metrics_);
  pending_dc_metrics_.clear();
  complete_row();
}

std::vector<std::vector<double>> RunMonitor::per_dc(const ParamSet& p) const {
  std::vector<std::vector<double>> out;
  for (const Dataset* t : dc_tests_) out.push_back(learner_.evaluate(p, *t));
  return out;
}

void RunMonitor::complete_row() {
  const TimelineRow& row = timeline_.back();
  if (!time_to_target_s_ && reached(row)) time_to_target_s_ = row.time_s;
  if (on_eval_) on_eval_(row);
}

bool RunMonitor::on_round(TimeNs now, std::int64_t round, const ParamSet& params, double train_loss) {
  if (row_open_ && pending_.done()) settle();  // an evaluation done meanwhile: shown now, not at the next
  rounds_applied_ = round;
  if (!std::isfinite(train_loss)) {  // every later round would be NaN too: stop and say so
    failure_ = "training diverged at round " + std::to_string(round) + ": the training loss is " +
               (std::isnan(train_loss) ? "NaN" : "infinite") + " (lower optimizer.lr?)";
    evaluate_now(now, round, params, train_loss);
    return true;
  }
  const bool last = (stop_.rounds > 0 && round >= stop_.rounds) ||
                    (stop_.sim_time_s > 0 && to_seconds(now) >= stop_.sim_time_s) || learner_.finished(params);
  const bool due = eval_.every_s > 0 ? to_seconds(now) >= next_eval_s_ : round % eval_.every_rounds == 0;
  if (last || due) evaluate_now(now, round, params, train_loss);
  return last || (stop_.stop_at_target && time_to_target_s_.has_value());
}

void RunMonitor::finish(TimeNs now, std::int64_t round, const ParamSet& params, double train_loss) {
  settle();
  if (!timeline_.empty() && timeline_.back().round == round) return;
  evaluate_now(now, round, params, train_loss);
}

void RunMonitor::restore(std::vector<TimelineRow> rows, std::optional<double> time_to_target_s) {
  settle();
  timeline_ = std::move(rows);
  time_to_target_s_ = time_to_target_s;
  if (eval_.every_s > 0 && !timeline_.empty())
    next_eval_s_ = (std::floor(timeline_.back().time_s / eval_.every_s) + 1) * eval_.every_s;
  if (!time_to_target_s_)
    for (const auto& r : timeline_)
      if (reached(r)) {
        time_to_target_s_ = r.time_s;
        break;
      }
}

}  // namespace geotrain
