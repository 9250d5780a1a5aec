// The summary's comm_time_per_round_s (core/job/role_stats.h): from a round's
// first push leaving a worker to the last worker holding the next model.
#include <gtest/gtest.h>

#include "sim/sim_runner.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

// Under bsp with fixed step times, every worker steps once, pushes, and waits
// for the model: a round is one step and then the communication.
TEST(CommTime, UnderBspARoundIsOneStepThenTheCommunication) {
  for (const char* wan : {"topology.wan.default.latency_ms=5", "topology.wan.default.latency_ms=80"}) {
    std::vector<std::string> sets = testing::small_sets(100);
    sets.push_back(wan);
    const RunResult r = sim::run_simulation(load_scenario(testing::source_path("scenarios/quickstart.json"), sets));
    ASSERT_EQ(r.rounds, 100);
    const WorkerSummary& w = r.workers.at(0);
    const double step_s = w.compute_busy_fraction * r.sim_time_s / double(w.steps);
    const double round_s = r.sim_time_s / double(r.rounds);
    EXPECT_GT(r.comm_time_per_round_s, 0.0) << wan;
    // The run ends when the last round is applied, before its model travels back: half a round's
    // communication short of `rounds` whole rounds.
    EXPECT_NEAR(step_s + r.comm_time_per_round_s, round_s, 0.01 * round_s) << wan;
  }
}

}  // namespace
}  // namespace geotrain
