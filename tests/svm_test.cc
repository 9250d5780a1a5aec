// The support-vector learners (CoCoA+): the closed-form coordinate step, the
// duality gap as a certificate, local work against WAN rounds, distributed
// against one worker, and the kernel learners on their generated data.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <random>

#include "core/config/scenario.h"
#include "core/learners/svm/dual_loss.h"
#include "sim/sim_runner.h"
#include "test_util.h"

namespace geotrain {
namespace {

// The coordinate step is the exact maximiser of its one-dimensional subproblem: no point of a fine grid over the
// feasible interval does better.
TEST(DualLoss, StepMaximisesTheCoordinateSubproblem) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<float> u(-3, 3), pos(0.05f, 5);
  for (bool eps_loss : {false, true}) {
    const DualLoss l{eps_loss, 0.3f};
    for (int trial = 0; trial < 200; ++trial) {
      const float y = eps_loss ? u(rng) : (trial % 2 ? 1.0f : -1.0f);
      const float alpha = eps_loss ? std::uniform_real_distribution<float>(-1, 1)(rng)
                                   : y * std::uniform_real_distribution<float>(0, 1)(rng);
      const float p = u(rng), q = pos(rng);
      const auto value = [&](float a) {
        return double(l.piece(a, y)) - (a - alpha) * p - q / 2.0 * (a - alpha) * (a - alpha);
      };
      const float best = l.step(alpha, y, p, q);
      const float lo = eps_loss ? -1.0f : std::min(0.0f, y), hi = eps_loss ? 1.0f : std::max(0.0f, y);
      ASSERT_GE(best, lo - 1e-6f);
      ASSERT_LE(best, hi + 1e-6f);
      for (int g = 0; g <= 2000; ++g) {
        const float a = lo + (hi - lo) * float(g) / 2000;
        ASSERT_GE(value(best), value(a) - 1e-5) << "eps " << eps_loss << " trial " << trial << " a " << a;
      }
    }
  }
}

Scenario svm_scenario(const std::string& model, std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {
      R"(model=)" + model,
      R"(dataset={"kind":"synthetic","features":16,"classes":3,"train":1200,"test":300,"noise":3})",
      "batch_size=100000", R"(stop={"rounds":80})", "eval.every_rounds=1"};
  sets.insert(sets.end(), more.begin(), more.end());
  return load_scenario(testing::source_path("scenarios/algo-svm.json"), sets);
}

std::int64_t rounds_to_gap(const RunResult& r, double gap) {
  for (const auto& row : r.timeline)
    if (std::isfinite(row.metrics[1]) && row.metrics[1] <= gap) return row.round;
  return 1 << 30;
}

// The gap is a certificate (never negative: W stays A alpha), it closes, and more local SDCA passes per round
// reach it in fewer WAN rounds.
TEST(Cocoa, MoreLocalWorkReachesTheDualityGapInFewerRounds) {
  std::vector<std::int64_t> rounds;
  for (const char* passes : {"0.25", "1", "4"}) {
    const RunResult r =
        sim::run_simulation(svm_scenario(std::string(R"({"kind":"svm","lambda":0.1,"passes":)") + passes + "}"));
    ASSERT_EQ(r.error, "");
    for (const auto& row : r.timeline)
      if (std::isfinite(row.metrics[1])) {
        EXPECT_GE(row.metrics[1], -1e-6) << "passes " << passes << " round " << row.round;
      }
    rounds.push_back(rounds_to_gap(r, 1e-2));
  }
  EXPECT_LT(rounds[2], rounds[1]);
  EXPECT_LT(rounds[1], rounds[0]);
  EXPECT_LE(rounds[0], 80) << "a quarter pass per round still closes the gap";
  std::cout << "rounds to a gap of 1e-2 at 0.25, 1, 4 passes: " << rounds[0] << " " << rounds[1] << " " << rounds[2]
            << "\n";
}

// Four workers and one reach the same optimum: the primal objective and the accuracy agree.
TEST(Cocoa, DistributedReachesOneWorkersOptimum) {
  const std::string model = R"({"kind":"svm","lambda":0.1,"passes":2})";
  const RunResult four = sim::run_simulation(svm_scenario(model));
  const RunResult one = sim::run_simulation(svm_scenario(model, {"topology=../topologies/single.json"}));
  ASSERT_EQ(four.error, "");
  ASSERT_EQ(one.error, "");
  const auto& a = four.timeline.back().metrics;
  const auto& b = one.timeline.back().metrics;
  std::cout << "gap, primal, accuracy: four " << a[1] << " " << a[2] << " " << a[0] << ", one " << b[1] << " " << b[2]
            << " " << b[0] << "\n";
  EXPECT_LT(a[1], 3e-3);
  EXPECT_LT(b[1], 3e-3);
  EXPECT_NEAR(a[2], b[2], std::max(a[1], b[1])) << "primal objectives: each within its gap of the optimum";
  EXPECT_NEAR(a[0], b[0], 0.01) << "test accuracy";
}

// The kernel learners on their generated data: SVR on Friedman #1 lands near the noise level, far below the
// spread of the targets; RankSVM on random Fourier features ranks far better than on the raw features (the true
// score multiplies features and squares one).
TEST(Cocoa, KernelSvrAndRankSvmLearnTheirGeneratedFunctions) {
  const RunResult svr = sim::run_simulation(load_scenario(
      testing::source_path("scenarios/algo-svr.json"),
      {R"(dataset={"kind":"friedman1","train":2000,"test":500,"noise":1})", R"(model.rff=300)", "stop.rounds=40"}));
  ASSERT_EQ(svr.error, "");
  EXPECT_LT(svr.timeline.back().metrics[0], 1.5) << "test RMSE; the targets' spread is about 5, the noise 1";
  const auto ranksvm = [](int rff) {
    return sim::run_simulation(load_scenario(testing::source_path("scenarios/algo-ranksvm.json"),
                                             {R"(dataset={"kind":"ranking","train_queries":200,"test_queries":100})",
                                              "model.rff=" + std::to_string(rff), "stop.rounds=15"}));
  };
  const RunResult kernel = ranksvm(200), linear = ranksvm(0);
  ASSERT_EQ(kernel.error, "");
  ASSERT_EQ(linear.error, "");
  EXPECT_GT(kernel.timeline.back().metrics[0], linear.timeline.back().metrics[0] + 0.1);
  EXPECT_GT(kernel.timeline.back().metrics[0], 0.8);
}

// Each round merges every worker's exact change to the same W: asynchronous policies and lossy codecs are refused
// with the JSON path.
TEST(Cocoa, RefusesStaleUpdatesAndLossyCodecs) {
  for (const auto& set : {std::string(R"(policy={"kind":"asp"})"), std::string("compression.wan_push.kind=fp16")}) {
    try {
      svm_scenario(R"({"kind":"svm"})", {set});
      FAIL() << set << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(set.rfind("policy", 0) == 0 ? "/policy" : "/compression/wan_push/kind"),
                std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace geotrain
