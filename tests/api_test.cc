// The public API owns no global state: simulations on several threads of one
// process at once each give what they give alone, bit for bit (flow-model runs
// concurrently, a packet-level ns-3 run beside them holding ns-3's simulator).
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "api/catalog.h"
#include "api/runs.h"
#include "api/scenarios.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::source_path;

// Everything a run reports but its wall-clock time.
nlohmann::json outputs(const RunResult& r) {
  nlohmann::json j = summary_json(r);
  j.erase("wall_time_s");
  nlohmann::json rows = nlohmann::json::array();
  for (const TimelineRow& t : r.timeline) {
    nlohmann::json row = {
        {"time_s", t.time_s}, {"round", t.round}, {"loss", t.loss}, {"wan", t.net.wan_bytes}, {"samples", t.samples}};
    for (double m : t.metrics) row["metrics"].push_back(m);
    rows.push_back(row);
  }
  j["timeline"] = rows;
  return j;
}

TEST(Api, SimulationsRunAtOnceInOneProcessEachGiveTheirSingleRunsResults) {
  struct Run {
    std::vector<std::string> sets;
    int threads;
  };
  const std::vector<Run> runs = {
      {{"network.model=flow", "stop.rounds=30"}, 1},
      {{"network.model=flow", "stop.rounds=30", "architecture=flat", "seed=2"}, 2},
      {{"network.model=flow", "stop.rounds=20", "policy={\"kind\":\"asp\"}", "seed=3"}, 1},
      {{"network.model=ns3", "stop.rounds=20"}, 1},
  };
  const auto run = [](const Run& r) {
    sim::SimOptions opt;
    opt.threads = r.threads;
    return outputs(sim::run_simulation(load_scenario(source_path("scenarios/quickstart.json"), r.sets), opt));
  };
  std::vector<nlohmann::json> alone;
  for (const Run& r : runs) alone.push_back(run(r));
  ASSERT_NE(alone[0], alone[1]) << "the runs must differ, or a mix-up would go unseen";
  ASSERT_NE(alone[0], alone[2]);

  std::vector<nlohmann::json> together(runs.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < runs.size(); ++i) threads.emplace_back([&, i] { together[i] = run(runs[i]); });
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(together[i], alone[i]) << "run " << i << " alone and beside the others";
    EXPECT_GT(together[i]["rounds"].get<int>(), 0);
  }
}

// Every network model the loader accepts has a model in sim/, and only those.
TEST(Api, EveryRegisteredNetworkModelCanBeMade) {
  ASSERT_FALSE(network_model_registry().empty());
  for (const NetworkModelInfo& m : network_model_registry())
    EXPECT_TRUE(sim::can_make_network_model(m.doc.name)) << m.doc.name;
  EXPECT_FALSE(sim::can_make_network_model("carrier-pigeon"));
}

}  // namespace
}  // namespace geotrain
