// The flow-level network model (sim/flow_network.h): a warm connection moves
// bytes at its bottleneck's rate, flows share a link fairly, a change touches
// only the flows it can affect, runs are deterministic, and the reference
// scenarios keep ns-3's time per round within 10% with the same payload bytes.
#include "sim/flow_network.h"

#include <gtest/gtest.h>
#include <ns3/core-module.h>

#include <map>

#include "core/job/job.h"
#include "core/run/results.h"
#include "sim/sim_runner.h"
#include "tests/real_test_util.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::source_path;

// A message of `floats` (a stand-in block charged at that size).
Message big(NodeId from, NodeId to, std::uint64_t floats) {
  auto p = std::make_shared<Payload>();
  p->blocks.push_back({0, Eigen::VectorXf::Zero(1), floats});
  return make_message(MsgKind::kPush, from, to, 0, std::move(p));
}

struct Harness {
  Scenario sc = load_scenario(source_path("scenarios/quickstart.json"));
  Deployment dep = plan_deployment(sc);
  std::map<std::pair<NodeId, std::uint32_t>, double> arrived;  // (receiver, seq) -> seconds
  std::unique_ptr<sim::EventLoop> loop = sim::make_own_event_loop();
  std::unique_ptr<sim::FlowNetwork> net;
  Harness() {
    net = std::make_unique<sim::FlowNetwork>(sc, dep, *loop, [this](const Message& m) {
      arrived[{m.to, m.seq}] = to_seconds(loop->now());
    });
  }
  void at(double s, Message m, std::uint32_t seq) {
    m.seq = seq;
    loop->schedule(ns3::Seconds(s).GetNanoSeconds(), [this, m] { net->send(m); });
  }
  NodeId worker(int dc, int k) const {
    return dep.nodes[dep.nodes[0].children[std::size_t(dc)]].children[std::size_t(k)];
  }
};

TEST(FlowNetwork, AWarmConnectionMovesBytesAtItsBottleneckAndTwoFlowsShareIt) {
  Harness h;
  const NodeId w1 = h.worker(0, 0), w2 = h.worker(0, 1), gs = h.dep.global_server;
  const std::uint64_t floats = 2'500'000;  // 10 MB
  // Back to back on one connection: the second arrives one transfer time after the first.
  h.at(0, big(w1, gs, floats), 1);
  h.at(0, big(w1, gs, floats), 2);
  h.at(10, big(w2, gs, 1000), 6);  // opens w2's connection
  // Later, two workers of one DC across the same 100 Mbps WAN link at once.
  h.at(20, big(w1, gs, floats), 3);
  h.at(20, big(w2, gs, floats), 4);
  h.at(40, big(w2, gs, floats), 5);  // w2's connection is warm now: alone, for reference
  h.loop->run();
  const double wire = double(big(w1, gs, floats).wire_bytes);
  const double seconds = wire * (1 + 54.0 / 64000) * 8 / 100e6;  // segments' headers, at the WAN's 100 Mbps
  EXPECT_NEAR(h.arrived.at({gs, 2}) - h.arrived.at({gs, 1}), seconds, seconds * 0.002);
  const double alone = h.arrived.at({gs, 5}) - 40;
  EXPECT_GT(alone, seconds);                                                 // plus the path's latency
  EXPECT_NEAR(h.arrived.at({gs, 3}) - 20, alone + seconds, seconds * 0.01);  // half the rate each
  EXPECT_NEAR(h.arrived.at({gs, 4}) - 20, alone + seconds, seconds * 0.01);
}

TEST(FlowNetwork, AFlowStartingOrEndingRecomputesOnlyTheFlowsItSharesLinksWith) {
  Harness h;
  const NodeId a = h.worker(0, 0), b = h.worker(1, 0);
  const NodeId ls_a = h.dep.nodes[std::size_t(a)].parent, ls_b = h.dep.nodes[std::size_t(b)].parent;
  h.at(0, big(a, ls_a, 50'000'000), 1);    // 200 MB inside dc-a: about 0.16 s
  h.at(0.05, big(b, ls_b, 1'000'000), 2);  // inside dc-b, while the first is under way
  h.loop->run();
  ASSERT_EQ(h.arrived.size(), 2u);
  // Four changes (two starts, two ends), each touching its own flow only: the
  // flow in dc-a is not recomputed when dc-b's starts or ends.
  const nlohmann::json d = h.net->drops();
  EXPECT_EQ(d["rate_recomputations"].get<int>(), 4);
  EXPECT_EQ(d["flows_recomputed"].get<int>(), 2) << d.dump();
}

// The reference scenarios: what the flow model must agree with ns-3 on.
struct Reference {
  const char* file;
  std::vector<std::string> sets;
};

TEST(FlowModel, ReferenceScenariosKeepNs3sTimePerRoundWithin10PercentAndTheSameBytes) {
  const Reference refs[] = {
      {"scenarios/quickstart-sgd.json", {"stop.rounds=30"}},
      {"scenarios/quickstart-bsc.json", {"stop.rounds=30"}},
      {"scenarios/fidelity/asymmetric.json", {}},
      {"scenarios/fidelity/big-model.json", {}},
      {"scenarios/fidelity/stragglers.json", {}},
      {"scenarios/p3-thin-on.json", {"stop.rounds=20"}},
      {"scenarios/hetero-4dc-esync.json", {"stop.rounds=8"}},
  };
  for (const auto& ref : refs) {
    SCOPED_TRACE(ref.file);
    std::map<std::string, RunResult> run;
    for (const char* model : {"ns3", "flow"}) {
      std::vector<std::string> sets = ref.sets;
      sets.push_back(std::string("network.model=") + model);
      run[model] = sim::run_simulation(load_scenario(source_path(ref.file), sets));
      ASSERT_EQ(run[model].error, "") << model;
    }
    const RunResult &ns3 = run["ns3"], &flow = run["flow"];
    ASSERT_EQ(flow.rounds, ns3.rounds);
    const double tpr_ns3 = ns3.sim_time_s / double(ns3.rounds), tpr_flow = flow.sim_time_s / double(flow.rounds);
    EXPECT_NEAR(tpr_flow / tpr_ns3, 1.0, 0.10) << "time per round: ns-3 " << tpr_ns3 << " s, flow " << tpr_flow << " s";
    // Every stream's payload bytes are the same (the same core sends the same messages)...
    EXPECT_EQ(flow.compression, ns3.compression);
    // ...and what crosses the links, headers and acks included, agrees within 1%.
    EXPECT_NEAR(double(flow.bytes.wan_bytes) / double(ns3.bytes.wan_bytes), 1.0, 0.01);
    EXPECT_NEAR(double(flow.bytes.lan_bytes) / double(ns3.bytes.lan_bytes), 1.0, 0.01);
  }
}

TEST(FlowModel, SameScenarioAndSeedGiveTheSameSummary) {
  const Scenario sc =
      load_scenario(source_path("scenarios/wan8-tsengine.json"), {"stop.rounds=5", "network.model=flow"});
  EXPECT_EQ(testing::without_wall_time(summary_json(sim::run_simulation(sc))),
            testing::without_wall_time(summary_json(sim::run_simulation(sc))));
}

}  // namespace
}  // namespace geotrain
