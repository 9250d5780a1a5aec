// The policy atlas (examples/sweeps/policy-atlas.json): every point (every
// policy on every atlas topology) runs a few rounds from its scenario in the
// ns-3 runtime, twice with identical results, and in real mode (geotrain
// launch, on loopback). A small synthetic task, small batches and short local
// rounds keep it to about a second per point; what is checked is that the policy runs the same
// protocol in both runtimes on that topology, not how well it trains.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/json/json_reader.h"
#include "core/sweep/sweep_plan.h"
#include "sim/sim_runner.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

using testing::fresh_dir;
using testing::read_json;
using testing::run_geotrain;
using testing::set_args;
using testing::source_path;
using testing::without_wall_time;

TEST(Atlas, EveryPolicyOnEveryTopologyRunsInBothRuntimesDeterministically) {
  const SweepPlan plan = load_sweep(source_path("examples/sweeps/policy-atlas.json"));
  ASSERT_EQ(plan.points.size(), 66u) << "11 policies x 6 topologies";
  const std::string base = source_path("scenarios/atlas.json");
  for (const SweepPoint& p : plan.points) {
    std::vector<std::string> sets = p.sets;
    sets.insert(sets.end(), {R"(model={"kind":"mlp","hidden":[16]})",
                             R"(dataset={"kind":"synthetic","features":32,"classes":4,"train":2000,"test":400})",
                             "stop.rounds=2", "stop.stop_at_target=false", R"(eval={"every_rounds":1})",
                             "batch_size=4"});  // real mode paces steps: 4 samples at 32/s is 0.125 s, not 1 s
    std::string policy;
    for (const auto& [path, value] : p.values)
      if (path == "policy") {
        policy = value.at("kind");
        for (const char* k : {"h", "k1", "k2"})  // short local rounds: seconds, not minutes, of 1 s steps
          if (value.contains(k)) sets.push_back(std::string("policy.") + k + "=2");
      }
    const std::string what = p.id + " " + policy + " " + p.sets.front();
    const Scenario sc = load_scenario(base, sets);
    const nlohmann::json sim = summary_json(sim::run_simulation(sc));
    EXPECT_EQ(without_wall_time(sim), without_wall_time(summary_json(sim::run_simulation(sc)))) << what;
    const std::string out = fresh_dir("atlas-" + p.id);
    const auto r = run_geotrain("launch " + base + " --out " + out + " -q --timeout 120" + set_args(sets));
    ASSERT_EQ(r.exit_code, 0) << what << "\n" << r.output;
    const nlohmann::json real = read_json(out + "/summary.json");
    std::filesystem::remove_all(out);
    for (const nlohmann::json& s : {sim, real}) {
      EXPECT_EQ(s["policy"], policy) << what;
      EXPECT_EQ(s["rounds"], 2) << what << " " << s["runtime"];
    }
    if (policy == "bsp" || policy == "local_sgd" || policy == "hfa" || policy == "fedavg") {  // fixed step counts
      EXPECT_EQ(sim["worker_steps"], real["worker_steps"]) << what;
    }
  }
}

}  // namespace
}  // namespace geotrain
