// DGT over ns-3 (core/layers/dgt/dgt_node.h on sim/): across the lossywan WAN (1%
// packet loss), best-effort blocks are real UDP datagrams that get lost, and
// every push still arrives as the one sent with exactly the lost blocks zeroed.
#include <gtest/gtest.h>
#include <ns3/core-module.h>

#include "core/job/compute_model.h"
#include "core/layers/dgt/dgt_node.h"
#include "core/topology/deployment.h"
#include "sim/compute_pool.h"
#include "sim/event_loop.h"
#include "sim/sim_network.h"
#include "sim/sim_node.h"
#include "sim/sim_transport.h"
#include "tests/dgt_test_util.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using namespace dgt_test;

TEST(DgtSim, OverALossyWanLostBlocksArriveAsZerosAndNothingElseChanges) {
  Scenario sc = load_scenario(testing::source_path("scenarios/lossywan-dgt.json"));
  sc.dgt.k = 0.3;
  sc.dgt.adaptive = false;
  sc.dgt.deadline_ms = 3000;  // pushes are 5 s apart: nothing is late, only lost
  const Deployment dep = plan_deployment(sc);
  ASSERT_EQ(dep.nodes[0].role, Role::kGlobalServer);
  ASSERT_EQ(dep.nodes[1].role, Role::kLocalServer);
  std::vector<int> dc_of;
  for (const auto& n : dep.nodes) dc_of.push_back(n.dc);
  const ComputeModel compute(sc.topology, sc.compute, dep);
  constexpr int kPushes = 8;
  std::vector<std::shared_ptr<Payload>> sent;
  for (int i = 0; i < kPushes; ++i) sent.push_back(update(1.0f + float(i), 1.0, 10));
  std::vector<Message> got;
  nlohmann::json sender, receiver;
  {
    sim::SimNetwork net(sc, dep);
    std::vector<DgtNode*> by_id(dep.nodes.size(), nullptr);
    sim::SimTransport transport(net, [&by_id](const Message& m) {
      if (by_id.at(std::size_t(m.to))) by_id[std::size_t(m.to)]->on_message(m);
    });
    sim::ComputePool pool(1);
    const std::unique_ptr<sim::EventLoop> loop = sim::make_ns3_event_loop();
    sim::SimNode gs(0, *loop, transport, compute, pool, 1, [] {}), ls(1, *loop, transport, compute, pool, 1, [] {});
    DgtNode rx(gs, sc.dgt, dc_of, sc.topology, dgt_model(10)), tx(ls, sc.dgt, dc_of, sc.topology, dgt_model(10));
    auto rec = std::make_unique<Recorder>();
    Recorder* recorder = rec.get();
    rx.wrap(std::move(rec));
    auto push = std::make_unique<Pusher>(tx, 1, 0);
    Pusher* pusher = push.get();
    tx.wrap(std::move(push));
    by_id[0] = &rx;
    by_id[1] = &tx;
    for (int i = 0; i < kPushes; ++i)
      ns3::Simulator::Schedule(ns3::Seconds(5.0 * i), [pusher, p = sent[std::size_t(i)], i] { pusher->push(p, i); });
    ns3::Simulator::Stop(ns3::Seconds(5.0 * kPushes + 10));
    ns3::Simulator::Run();
    got = recorder->got;
    sender = tx.report(0)["dgt"];
    receiver = rx.report(0)["dgt"];
  }
  ns3::Simulator::Destroy();
  ASSERT_EQ(got.size(), std::size_t(kPushes));
  int zeros = 0;
  for (int i = 0; i < kPushes; ++i) {
    EXPECT_EQ(got[std::size_t(i)].round, i);
    zeros += zeroed_blocks(*sent[std::size_t(i)], *got[std::size_t(i)].payload);
  }
  int best_effort = 0, arrived = 0;
  for (int c = 1; c <= sc.dgt.channels; ++c) {
    best_effort += sender["sent"][c].get<int>();
    arrived += receiver["on_time"][c].get<int>();
    EXPECT_EQ(receiver["late"][c].get<int>(), 0);
  }
  EXPECT_EQ(zeros, best_effort - arrived) << "exactly the lost blocks are zero";
  // 4 KB blocks are three datagrams: about 3% of them are lost at 1% packet loss.
  const double lost = double(best_effort - arrived) / best_effort;
  EXPECT_GT(lost, 0.01);
  EXPECT_LT(lost, 0.08);
  EXPECT_EQ(sender["sent"][0], receiver["on_time"][0]);
}

}  // namespace
}  // namespace geotrain
