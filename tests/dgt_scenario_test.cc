// The shipped lossywan scenarios: DGT in both runtimes from the same file (real
// mode's relays lose UDP datagrams at the WAN's configured rate, as ns-3's
// links lose packets), and at no loss with K = 1 exactly plain transfer.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/policies/policy_registry.h"
#include "sim/sim_runner.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

using testing::fresh_dir;
using testing::read_json;
using testing::run_geotrain;
using testing::set_args;
using testing::small_sets;
using testing::source_path;
using testing::without_wall_time;

// Best-effort blocks lost (neither on time nor late) over those sent.
double best_effort_loss(const nlohmann::json& dgt) {
  double sent = 0, lost = 0;
  for (const auto& c : dgt["channels"])
    if (!c["reliable"].get<bool>()) {
      sent += c["sent"].get<double>();
      lost += c["lost"].get<double>();
    }
  return sent > 0 ? lost / sent : -1;
}

TEST(DgtScenario, LossyWanLosesBlocksAlikeInBothRuntimes) {
  const std::string file = source_path("scenarios/lossywan-dgt.json");
  const std::vector<std::string> sets = {"stop.rounds=30", "stop.sim_time_s=0", "eval.every_rounds=10"};
  const Scenario sc = load_scenario(file, sets);
  const nlohmann::json sim = summary_json(sim::run_simulation(sc));
  EXPECT_EQ(without_wall_time(sim), without_wall_time(summary_json(sim::run_simulation(sc))));
  const std::string out = fresh_dir("dgt-lossywan");
  const auto r = run_geotrain("launch " + file + " --out " + out + " -q --timeout 300" + set_args(sets));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json real = read_json(out + "/summary.json");
  std::filesystem::remove_all(out);
  ASSERT_TRUE(sim["dgt"].is_object());
  ASSERT_TRUE(real["dgt"].is_object());
  EXPECT_EQ(real["rounds"], 30);
  // A 4 KB block is three datagrams: lost with probability 1 - 0.99^3 = 2.97%.
  const double expected = 1 - std::pow(0.99, 3);
  const double in_sim = best_effort_loss(sim["dgt"]), in_real = best_effort_loss(real["dgt"]);
  EXPECT_NEAR(in_sim, expected, 0.4 * expected);
  EXPECT_NEAR(in_real, expected, 0.4 * expected);
  EXPECT_EQ(sim["dgt"]["rejected"], 0);
  EXPECT_EQ(real["dgt"]["rejected"], 0);
  EXPECT_NEAR(real["final_test_accuracy"].get<double>(), sim["final_test_accuracy"].get<double>(), 0.02);
}

TEST(DgtScenario, AtNoLossWithKOneDgtTrainsExactlyAsPlainTransfer) {
  const std::vector<std::string> sets = {"stop.rounds=20", "stop.sim_time_s=0", "eval.every_rounds=10", "dgt.k=1",
                                         "dgt.k_min=1"};
  const nlohmann::json plain =
      summary_json(sim::run_simulation(load_scenario(source_path("scenarios/lossywan-noloss-dense.json"), sets)));
  const nlohmann::json dgt =
      summary_json(sim::run_simulation(load_scenario(source_path("scenarios/lossywan-noloss-dgt.json"), sets)));
  ASSERT_TRUE(dgt["dgt"].is_object());
  EXPECT_EQ(best_effort_loss(dgt["dgt"]), -1) << "nothing went best-effort";
  for (const char* k : {"final_test_accuracy", "final_loss", "final_test_loss", "rounds", "worker_steps"})
    EXPECT_EQ(dgt[k], plain[k]) << k;
}

// DGT sits under every policy: whatever a policy pushes across the WAN (a
// gradient sum, a model delta, gaia's sparse change) goes in parts and trains.
TEST(DgtScenario, ComposesWithEveryPolicy) {
  for (const PolicyInfo& p : policy_registry()) {
    std::vector<std::string> sets = small_sets(6);
    sets.push_back(R"(policy={"kind":")" + p.name + R"("})");
    sets.push_back("architecture=" + p.architectures.front());
    sets.push_back("stop.sim_time_s=0");
    sets.push_back("dgt.block_bytes=64");  // the small model's tensors in many blocks
    const RunResult r = sim::run_simulation(load_scenario(source_path("scenarios/lossywan-dgt.json"), sets));
    EXPECT_EQ(r.error, "") << p.name;
    EXPECT_GE(r.rounds, 1) << p.name;
    ASSERT_TRUE(r.dgt.is_object()) << p.name;
    EXPECT_GT(r.dgt["pushes_assembled"].get<int>(), 0) << p.name;
    EXPECT_GT(best_effort_loss(r.dgt), -1) << p.name << ": some blocks went best-effort";
    EXPECT_TRUE(std::isfinite(r.timeline.back().loss)) << p.name;
  }
}

}  // namespace
}  // namespace geotrain
