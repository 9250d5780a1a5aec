// The online learners (core/learners/online/): a stream read once, in order,
// judged before it is learned from, ending by itself; FTRL's L1 makes weights
// exactly zero.
#include <gtest/gtest.h>

#include "sim/sim_runner.h"
#include "test_util.h"

namespace geotrain {
namespace {

RunResult stream(const std::string& model, std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {"model=" + model, "batch_size=5", R"(stop={"rounds":100000})",
                                   "eval.every_rounds=1000"};
  sets.insert(sets.end(), more.begin(), more.end());
  return sim::run_simulation(testing::small_scenario("hips", sets));
}

TEST(Online, EachWorkerReadsItsShardOnceInOrderAndTheRunEndsAfterThePass) {
  const RunResult r = stream(R"({"kind":"ftrl","alpha":0.3})");
  ASSERT_EQ(r.error, "");
  EXPECT_EQ(r.rounds, 2000 / (4 * 5)) << "2,000 samples, 4 workers, 5 each a round";
  EXPECT_EQ(r.worker_steps, 2000 / 5);
  const auto& m = r.timeline.back().metrics;  // test_accuracy, progressive_accuracy, progressive_loss, nonzero
  EXPECT_GT(m[0], 0.6) << "well above chance (1/4)";
  EXPECT_GT(m[1], 0.5) << "judged before learning, so below the test accuracy but above chance";
  EXPECT_GT(m[2], 0.0);
  for (const char* ftml : {R"({"kind":"ftml","eta":0.01})"}) {
    const RunResult f = stream(ftml);
    ASSERT_EQ(f.error, "");
    EXPECT_EQ(f.rounds, 100);
    EXPECT_GT(f.timeline.back().metrics[0], 0.6);
  }
}

TEST(Online, FtrlsL1MakesWeightsExactlyZero) {
  double last = 1.1;
  for (const char* l1 : {"0", "1", "3"}) {
    const RunResult r = stream(std::string(R"({"kind":"ftrl","alpha":0.3,"l1":)") + l1 + "}");
    ASSERT_EQ(r.error, "");
    const double nonzero = r.timeline.back().metrics[3];
    EXPECT_LT(nonzero, last) << "l1 " << l1;
    EXPECT_GT(r.timeline.back().metrics[0], 0.5) << "l1 " << l1;
    last = nonzero;
  }
  EXPECT_LT(last, 0.5);
}

}  // namespace
}  // namespace geotrain
