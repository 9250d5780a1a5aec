// MultiGPS (core/layers/shard/shard_node.h): on the fake runtime S global servers
// train exactly as one, each takes in exactly its slices, and two halve the
// largest server's inbound bytes; in ns-3 time per round falls with S when
// the servers' links are the bottleneck; real mode runs S = 2 from the file.
#include <gtest/gtest.h>

#include <cstdio>

#include "core/layers/shard/shard_map.h"
#include "core/testing/fake_job.h"
#include "sim/sim_runner.h"
#include "tests/real_test_util.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::FakeJob;

Scenario sharded(int servers, int rounds = 10, std::vector<std::string> extra = {}) {
  std::vector<std::string> sets = {R"(multigps={"servers":)" + std::to_string(servers) + R"(,"split_above":100})",
                                   "stop.rounds=" + std::to_string(rounds), "eval.every_rounds=5"};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return testing::small_scenario("hips", sets);
}

// Two DCs (the quickstart's) and four of different speeds: with four, each
// server's pushes arrive in an order of their own, and only a sum that does not
// follow arrival order (the Aggregator's) trains bit for bit as one server.
// Three servers cut tensors into slices of lengths that are not multiples of a
// vector register's: their Adam steps matched one server's only once every
// square root was exact (EIGEN_FAST_MATH 0, CMakeLists.txt).
TEST(MultiGps, SeveralServersTrainExactlyAsOne) {
  const std::string four_dcs =
      R"(topology={"name":"four","lan":{"bandwidth_mbps":10000,"latency_ms":0.05},)"
      R"("dcs":[{"name":"central","workers":0},{"name":"a","workers":2,"worker_gflops":5},)"
      R"({"name":"b","workers":2,"worker_gflops":3},{"name":"c","workers":2,"worker_gflops":2},)"
      R"({"name":"d","workers":2,"worker_gflops":4}],"global_server_dc":"central",)"
      R"("wan":{"default":{"bandwidth_mbps":100,"latency_ms":20}}})";
  for (const std::vector<std::string>& topology : {std::vector<std::string>{}, std::vector<std::string>{four_dcs}}) {
    SCOPED_TRACE(topology.empty() ? "two DCs" : "four DCs");
    FakeJob one(sharded(1, 10, topology));
    one.run();
    for (int servers : {2, 3, 4}) {
      SCOPED_TRACE(servers);
      FakeJob many(sharded(servers, 10, topology));
      EXPECT_EQ(many.job().deployment().global_servers.size(), std::size_t(servers));
      many.run();
      const auto &a = one.monitor().timeline(), &b = many.monitor().timeline();
      ASSERT_EQ(a.size(), b.size());
      ASSERT_FALSE(a.empty());
      for (std::size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].round, b[i].round);
        EXPECT_EQ(a[i].metrics, b[i].metrics) << "row " << i;
        EXPECT_EQ(a[i].loss, b[i].loss) << "row " << i;
      }
    }
  }
}

TEST(MultiGps, EachServerTakesInExactlyItsSlicesAndTwoHalveTheLargestInbound) {
  std::map<int, std::uint64_t> largest_inbound;
  for (int servers : {1, 2, 4}) {
    SCOPED_TRACE(servers);
    // A model whose bytes are nearly all in tensors cut evenly (8,192, 256 and 1,024 entries; 4 whole).
    FakeJob fj(sharded(servers, 4, {R"(model={"kind":"mlp","hidden":[256]})"}));
    const Deployment& dep = fj.job().deployment();
    const ShardMap map(fj.job().initial_params(), servers, 100);
    int wrong = 0, pushes = 0;
    fj.world().observe([&](const Message& m) {
      const auto it = std::find(dep.global_servers.begin(), dep.global_servers.end(), m.to);
      if (m.kind != MsgKind::kPush || it == dep.global_servers.end()) return;
      ++pushes;
      const auto want = map.slices_of(int(it - dep.global_servers.begin()));
      if (m.payload->blocks.size() != want.size()) return void(++wrong);
      for (std::size_t i = 0; i < want.size(); ++i)
        if (m.payload->blocks[i].key != want[i].key ||
            m.payload->blocks[i].values.size() != Eigen::Index(want[i].count))
          ++wrong;
    });
    fj.run();
    EXPECT_EQ(wrong, 0);
    EXPECT_EQ(pushes, 2 * servers * 4) << "two local servers push every shard every round";
    std::uint64_t largest = 0;
    for (NodeId g : dep.global_servers) {
      std::uint64_t in = 0;
      // From its children (the local servers' pushes and requests). The first
      // server also takes in the others' shards of each round's model, over the
      // central party's LAN, to evaluate it: counted apart, not here.
      for (NodeId c : dep.nodes[std::size_t(g)].children) in += fj.world().sent(c, g).bytes;
      largest = std::max(largest, in);
    }
    largest_inbound[servers] = largest;
  }
  std::printf("largest server inbound from its children: S=1 %llu B, S=2 %llu B (%.4f), S=4 %llu B (%.4f)\n",
              (unsigned long long)largest_inbound[1], (unsigned long long)largest_inbound[2],
              double(largest_inbound[2]) / double(largest_inbound[1]), (unsigned long long)largest_inbound[4],
              double(largest_inbound[4]) / double(largest_inbound[1]));
  // Half and a quarter, give or take the headers and the small tensor.
  EXPECT_NEAR(double(largest_inbound[2]) / double(largest_inbound[1]), 0.5, 0.02);
  EXPECT_NEAR(double(largest_inbound[4]) / double(largest_inbound[1]), 0.25, 0.02);
}

TEST(MultiGps, TheLoaderKeepsItToBspAndDenseStreams) {
  for (const auto& extra : {std::string("policy.kind=asp"), std::string(R"(compression={"wan_push":{"kind":"fp16"}})"),
                            std::string(R"(p3={"slice_elements":1000})")}) {
    try {
      testing::small_scenario("hips", {R"(multigps={"servers":2})", extra});
      ADD_FAILURE() << extra << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("/multigps/servers"), std::string::npos) << e.what();
    }
  }
}

TEST(MultiGpsScenario, MoreServersCutTheRoundWhenTheirLinksAreTheBottleneckAndRunInRealMode) {
  const std::vector<std::string> sets = {"stop.rounds=10"};
  std::map<int, nlohmann::json> s;
  for (int servers : {1, 2, 4})
    s[servers] = summary_json(sim::run_simulation(
        load_scenario(testing::source_path("scenarios/multigps-" + std::to_string(servers) + ".json"), sets)));
  EXPECT_LT(s[2]["time_per_round_s"].get<double>(), 0.8 * s[1]["time_per_round_s"].get<double>());
  EXPECT_LT(s[4]["time_per_round_s"].get<double>(), s[2]["time_per_round_s"].get<double>());
  // The same sums, in the order the pushes arrive (which S changes): the same training within float rounding.
  for (int servers : {2, 4})
    EXPECT_NEAR(s[servers]["final_test_accuracy"].get<double>(), s[1]["final_test_accuracy"].get<double>(), 0.005);
  const nlohmann::json real =
      testing::launch_summary(testing::source_path("scenarios/multigps-2.json"), testing::small_sets(4), "multigps-2");
  ASSERT_FALSE(real.is_null());
  EXPECT_EQ(real["rounds"], 4);
  const nlohmann::json sim = summary_json(
      sim::run_simulation(load_scenario(testing::source_path("scenarios/multigps-2.json"), testing::small_sets(4))));
  EXPECT_NEAR(real["final_test_accuracy"].get<double>(), sim["final_test_accuracy"].get<double>(), 0.02);
}

}  // namespace
}  // namespace geotrain
