// The simulated transport: reliable messages arrive complete and in order per
// pair; best-effort messages arrive when every datagram does and are lost
// otherwise; bandwidth traces change transfer times.
#include "sim/sim_transport.h"

#include <gtest/gtest.h>
#include <ns3/core-module.h>

#include "core/topology/deployment.h"
#include "sim/capped_cubic.h"
#include "sim/sim_network.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::small_scenario;

struct Delivery {
  TimeNs t;
  Message m;
};

// Sends msgs[i] at i * gap_s (or at at_s[i] when given) on the quickstart
// topology, runs, returns what arrived.
std::vector<Delivery> deliver_all(const Scenario& sc, const std::vector<Message>& msgs, double gap_s = 0,
                                  const std::vector<double>& at_s = {}) {
  std::vector<Delivery> got;
  {
    const Deployment dep = plan_deployment(sc);
    sim::SimNetwork net(sc, dep);
    sim::SimTransport transport(net, [&got](const Message& m) {
      got.push_back({ns3::Simulator::Now().GetNanoSeconds(), m});
    });
    for (std::size_t i = 0; i < msgs.size(); ++i)
      ns3::Simulator::Schedule(ns3::Seconds(at_s.empty() ? gap_s * double(i) : at_s[i]),
                               [&transport, m = msgs[i]] { transport.send(m); });
    ns3::Simulator::Stop(ns3::Seconds(100));
    ns3::Simulator::Run();
  }
  ns3::Simulator::Destroy();
  return got;
}

Message msg(NodeId from, NodeId to, std::int64_t round, std::uint64_t bytes, Channel ch) {
  Message m = make_message(MsgKind::kPush, from, to, round);
  m.wire_bytes = bytes;
  m.channel = ch;
  return m;
}

// Node ids under hips on the quickstart topology: 0 global server, 1 dc-a local server.
TEST(SimTransport, ReliableMessagesArriveInOrderWithSerialisationDelay) {
  const Scenario sc = small_scenario("hips");
  std::vector<Message> msgs;
  for (int i = 0; i < 5; ++i) msgs.push_back(msg(1, 0, i, 1'000'000, Channel::kReliable));
  const auto got = deliver_all(sc, msgs);
  ASSERT_EQ(got.size(), 5u);
  for (int i = 0; i < 5; ++i) EXPECT_EQ(got[i].m.round, i);
  // 5 MB over a 100 Mbps WAN: at least 0.4 s of serialisation plus 50 ms latency.
  EXPECT_GT(to_seconds(got.back().t), 0.45);
  EXPECT_LT(to_seconds(got.back().t), 3.0);
}

TEST(SimTransport, HigherPriorityQueuedMessageGoesFirst) {
  const Scenario sc = small_scenario("hips");
  Message low1 = msg(1, 0, 1, 2'000'000, Channel::kReliable);
  Message low2 = msg(1, 0, 2, 2'000'000, Channel::kReliable);
  Message high = msg(1, 0, 3, 2'000'000, Channel::kReliable);
  high.priority = 5;
  // All three queue while the connection opens: high goes first, then FIFO.
  auto got = deliver_all(sc, {low1, low2, high});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0].m.round, 3);
  EXPECT_EQ(got[1].m.round, 1);
  EXPECT_EQ(got[2].m.round, 2);
  // Once low1 is being written (sent 1 s later, on an open connection), a
  // message cannot be interrupted: high overtakes only the queued low2.
  Message warmup = msg(1, 0, 0, 100, Channel::kReliable);
  got = deliver_all(sc, {warmup, low1, low2, high}, 0, {0.0, 1.0, 1.0, 1.0});
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[1].m.round, 1);
  EXPECT_EQ(got[2].m.round, 3);
  EXPECT_EQ(got[3].m.round, 2);
}

TEST(SimTransport, BestEffortDeliversWithoutLossAndDropsUnderLoss) {
  std::vector<Message> msgs;
  for (int i = 0; i < 20; ++i) msgs.push_back(msg(1, 0, i, 200'000, Channel::kBestEffort));
  // Spaced out (UDP has no congestion control: a burst overflows the WAN queue).
  EXPECT_EQ(deliver_all(small_scenario("hips"), msgs, 0.05).size(), 20u);
  const auto burst = deliver_all(small_scenario("hips"), msgs, 0.0);
  EXPECT_LT(burst.size(), 20u) << "4 MB at once into a 1.25 MB WAN queue";
  const auto lossy = deliver_all(small_scenario("hips", {"topology.wan.default.loss=0.1"}), msgs, 0.05);
  EXPECT_LT(lossy.size(), 20u) << "a 200 KB message over 4 datagrams survives 10% loss with p = 0.66: not all 20 do";
}

TEST(SimTransport, BandwidthTraceSlowsLaterTransfers) {
  const std::vector<Message> one = {msg(1, 0, 0, 5'000'000, Channel::kReliable)};
  const auto fast = deliver_all(small_scenario("hips"), one);
  const auto slow =
      deliver_all(small_scenario("hips", {R"(topology.wan.default.trace=[{"t_s":0,"bandwidth_mbps":10}])"}), one);
  ASSERT_EQ(fast.size(), 1u);
  ASSERT_EQ(slow.size(), 1u);
  // 5 MB: 0.4 s of serialisation at 100 Mbps (plus slow start), 4 s at 10 Mbps.
  EXPECT_LT(to_seconds(fast[0].t), 1.0);
  EXPECT_GT(to_seconds(slow[0].t), 4.0);
  EXPECT_LT(to_seconds(slow[0].t), 5.0);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// Forged datagrams (a fragment index past its count, no fragments at all, a
// message nobody sent) are refused or dropped, counted, and spoil nothing: a
// real best-effort message still arrives whole.
TEST(SimTransport, ForgedDatagramsAreDroppedAndCounted) {
  const Scenario sc = testing::small_scenario("hips");
  std::vector<Message> got;
  Reassembler::Counters counters;
  {
    const Deployment dep = plan_deployment(sc);
    sim::SimNetwork net(sc, dep);
    sim::SimTransport transport(net, [&got](const Message& m) { got.push_back(m); });
    ns3::Simulator::Schedule(ns3::Seconds(0), [&transport] {
      transport.send_fragment(1, 0, {1, 77, 3, 3}, 100);    // index past the count
      transport.send_fragment(1, 0, {1, 77, 0, 0}, 100);    // no fragments
      transport.send_fragment(1, 0, {1, 5000, 0, 1}, 100);  // complete, but no such message was sent
    });
    ns3::Simulator::Schedule(ns3::Seconds(1), [&transport] {
      Message m = make_message(MsgKind::kPush, 1, 0, 3);
      m.wire_bytes = 5000;
      m.channel = Channel::kBestEffort;
      transport.send(m);
    });
    ns3::Simulator::Stop(ns3::Seconds(10));
    ns3::Simulator::Run();
    counters = transport.datagram_counters(0);
  }
  ns3::Simulator::Destroy();
  EXPECT_EQ(counters.rejected, 2u);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].round, 3);
}

// ns-3 3.37 grows an application-limited sender's cwnd (a uint32_t) on every
// ACK; after about 8.6 GB on one lossless connection it wrapped below one
// segment and the sender stalled for ever. The congestion control the
// simulation installs holds it below 2 GiB instead.
TEST(CappedCubic, CwndNeverWrapsWhereTcpCubicDoes) {
  const auto grow = [](ns3::Ptr<ns3::TcpCongestionOps> cc, std::uint32_t cwnd) {
    auto tcb = ns3::CreateObject<ns3::TcpSocketState>();
    tcb->m_segmentSize = 64000;
    tcb->m_ssThresh = std::numeric_limits<std::uint32_t>::max();  // slow start: + one segment per segment acked
    tcb->m_cWnd = cwnd;
    cc->IncreaseWindow(tcb, 4);
    return tcb->m_cWnd.Get();
  };
  const std::uint32_t near_wrap = std::numeric_limits<std::uint32_t>::max() - 100000;
  EXPECT_LT(grow(ns3::CreateObject<ns3::TcpCubic>(), near_wrap), 1u << 20);  // the wrap the cap prevents
  EXPECT_EQ(grow(ns3::CreateObject<sim::CappedCubic>(), near_wrap), sim::CappedCubic::kMaxCwndBytes);
  EXPECT_EQ(grow(ns3::CreateObject<sim::CappedCubic>(), sim::CappedCubic::kMaxCwndBytes - 100000),
            sim::CappedCubic::kMaxCwndBytes);
  EXPECT_EQ(grow(ns3::CreateObject<sim::CappedCubic>(), 1000000), 1000000 + 4 * 64000);  // below it: TcpCubic's
}

}  // namespace
}  // namespace geotrain
