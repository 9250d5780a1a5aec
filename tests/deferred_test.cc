// Deferred work (core/base/parallel.h) and the monitor's deferred evaluations
// (core/run/monitor.h): where a runtime lends a thread, an evaluation nothing waits
// for runs beside the job, and the timeline is the same as when it runs at once.
#include <gtest/gtest.h>

#include <deque>
#include <stdexcept>

#include "core/base/parallel.h"
#include "core/job/job.h"
#include "core/run/monitor.h"
#include "test_util.h"

namespace geotrain {
namespace {

// Pieces as a runtime without threads runs them.
void one_after_another(int n, const std::function<void(int)>& piece) {
  for (int i = 0; i < n; ++i) piece(i);
}

// A lent "thread" at its laziest: work runs only when its owner waits for it.
struct LazyStarter {
  std::deque<bool> ran;
  TaskStarter starter() {
    return [this](std::function<void()> work) {
      ran.push_back(false);
      bool* flag = &ran.back();
      auto w = std::make_shared<std::function<void()>>(std::move(work));
      return StartedTask{[w, flag] {
                           if (!*flag) (*w)();
                           *flag = true;
                         },
                         [flag] { return *flag; }};
    };
  }
};

TEST(Deferred, RunsAtOnceWithoutALentThreadAndRethrowsOnlyWhenWaitedFor) {
  int runs = 0;
  Deferred ok([&runs] { ++runs; });
  EXPECT_EQ(runs, 1);
  EXPECT_TRUE(ok.done());
  ok.wait();
  Deferred bad([] { throw std::runtime_error("boom"); });
  EXPECT_THROW(bad.wait(), std::runtime_error);
  EXPECT_NO_THROW(bad.wait());  // told once
}

TEST(Deferred, WithALentThreadRunsWhenTheStarterRunsItAndWaitsForIt) {
  LazyStarter lazy;
  const LendThreads lend(one_after_another, lazy.starter());
  int runs = 0;
  Deferred d([&runs] { ++runs; });
  EXPECT_EQ(runs, 0);
  EXPECT_FALSE(d.done());
  d.wait();
  EXPECT_EQ(runs, 1);
  EXPECT_TRUE(d.done());
}

struct Observed {
  std::vector<TimelineRow> rows;
  std::vector<double> row_times;    // on_row's, in call order
  std::vector<std::int64_t> evals;  // on_eval's rounds, in call order
  std::optional<double> ttt;
};

// Ten rounds of a small job's model through a monitor, evaluated every 2; the
// model changes after every round (a mock of the global server's updates).
Observed drive(const TrainingJob& job, bool stop_at_target) {
  StopSpec stop;
  stop.rounds = 10;
  stop.target = 0.3;
  stop.target_metric = "test_accuracy";
  stop.stop_at_target = stop_at_target;
  EvalSpec eval;
  eval.every_rounds = 2;
  Observed o;
  RunMonitor m(job.learner(), job.data().test, stop, eval, [] { return NetCounters{}; });
  m.on_row([&o](double t) { o.row_times.push_back(t); });
  m.on_eval([&o](const TimelineRow& r) { o.evals.push_back(r.round); });
  ParamSet p = job.initial_params();
  for (std::int64_t r = 1; r <= 10; ++r) {
    for (auto& b : p) b.values.array() += 0.01f * float(r) * Eigen::ArrayXf::LinSpaced(b.values.size(), -1, 1);
    const std::size_t rows_before = o.row_times.size();
    if (m.on_round(r * kNsPerSecond, r, p, 1.0)) break;
    if (o.row_times.size() > rows_before) {
      EXPECT_EQ(o.row_times.back(), double(r));  // at the row's own time
    }
  }
  m.finish(11 * kNsPerSecond, 10, p, 1.0);
  o.rows = m.timeline();
  o.ttt = m.time_to_target_s();
  return o;
}

TEST(RunMonitor, DeferredEvaluationsGiveTheSameTimelineAsEvaluationsAtOnce) {
  const TrainingJob job(testing::small_scenario("hips"));
  const Observed now = drive(job, false);
  LazyStarter lazy;
  Observed later;
  {
    const LendThreads lend(one_after_another, lazy.starter());
    later = drive(job, false);
  }
  EXPECT_EQ(lazy.ran.size(), 5u);  // every evaluation was deferred
  ASSERT_EQ(now.rows.size(), 5u);
  ASSERT_EQ(later.rows.size(), now.rows.size());
  for (std::size_t i = 0; i < now.rows.size(); ++i) {
    EXPECT_EQ(later.rows[i].round, now.rows[i].round);
    ASSERT_FALSE(later.rows[i].metrics.empty());
    EXPECT_EQ(later.rows[i].metrics, now.rows[i].metrics);
  }
  EXPECT_EQ(later.evals, now.evals);
  EXPECT_EQ(later.row_times, now.row_times);
  EXPECT_EQ(later.ttt, now.ttt);
  EXPECT_NE(now.rows.front().metrics, now.rows.back().metrics);  // the model did change
}

TEST(RunMonitor, AStopAtTheTargetEvaluatesAtOnce) {
  const TrainingJob job(testing::small_scenario("hips"));
  LazyStarter lazy;
  const LendThreads lend(one_after_another, lazy.starter());
  const Observed o = drive(job, true);
  EXPECT_TRUE(lazy.ran.empty());  // the decision to go on waits for each row's metrics
  EXPECT_EQ(o.evals.size(), o.rows.size());
}

}  // namespace
}  // namespace geotrain
