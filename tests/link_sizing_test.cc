// The rules that size segments, queues and loss for the simulated network.
#include "sim/link_sizing.h"

#include <gtest/gtest.h>

#include "sim/packet_loss_model.h"

namespace geotrain::sim {
namespace {

TEST(LinkSizing, ASegmentNeverOutlastsAnEighthOfTheMinimumRto) {
  // 2 Mbps / 20 ms: max(1 ms, 5 ms) of sending is 1,250 B, below a real packet: 1,448.
  EXPECT_EQ(segment_cap_bytes(2, 20, 200), kRealSegmentBytes);
  // 2 Mbps / 100 ms: 25 ms = min_rto / 8 of sending, 6,250 B (a 64 KB segment would take 256 ms).
  EXPECT_EQ(segment_cap_bytes(2, 100, 200), 6250u);
  // 100 Mbps / 50 ms: 12.5 ms of sending, 156,250 B: the 64,000-byte default passes.
  EXPECT_EQ(segment_cap_bytes(100, 50, 200), 156250u);
  // A 10 Gbps LAN with 50 us latency: 1 ms of sending.
  EXPECT_EQ(segment_cap_bytes(10000, 0.05, 200), 1250000u);
  for (double mbps : {0.01, 0.5, 2.0, 50.0, 1000.0})
    for (double lat : {0.05, 10.0, 100.0, 5000.0}) {
      const double seconds = segment_cap_bytes(mbps, lat, 200) * 8 / (mbps * 1e6);
      EXPECT_TRUE(seconds <= 0.025 + 1e-9 || segment_cap_bytes(mbps, lat, 200) == kRealSegmentBytes)
          << mbps << " Mbps, " << lat << " ms";
    }
}

TEST(LinkSizing, QueuesFollowTheBandwidthDelayProductWithAFloor) {
  // 50 Mbps / 100 ms: the BDP, 1.25 MB.
  EXPECT_EQ(queue_limit_bytes(50, 100, 64100), 1250000u);
  // 2 Mbps / 20 ms: BDP 10 KB, floor 100 ms of sending (25 KB), not a 1 MiB queue of 4 s.
  EXPECT_EQ(queue_limit_bytes(2, 20, 1548), 25000u);
  // 10 Gbps LAN: BDP 125 KB, floor 1 MiB.
  EXPECT_EQ(queue_limit_bytes(10000, 0.05, 64100), 1u << 20);
  // Never less than two of the largest packets.
  EXPECT_EQ(queue_limit_bytes(0.01, 0.05, 64100), 128200u);
}

TEST(PacketLoss, ASimulatedPacketStandsForItsRealPackets) {
  EXPECT_EQ(PacketLossModel::real_packets(60), 1u);    // an ACK
  EXPECT_EQ(PacketLossModel::real_packets(1502), 1u);  // a 1,448-byte segment with its headers
  EXPECT_EQ(PacketLossModel::real_packets(2 * 1448 + 62), 2u);
  EXPECT_EQ(PacketLossModel::real_packets(64000 + 54), 45u);  // 64,000 / 1,448 = 44.2
}

TEST(PacketLoss, LossIsDrawnPerRealPacket) {
  // 1% per real packet: a 1,448-byte segment is lost 1% of the time, a 64 KB one 1 - 0.99^45 = 36%.
  for (std::uint32_t bytes : {1502u, 64054u}) {
    ns3::Ptr<PacketLossModel> m = ns3::CreateObject<PacketLossModel>(0.01, 7);
    int lost = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) lost += m->IsCorrupt(ns3::Create<ns3::Packet>(bytes)) ? 1 : 0;
    const double expected = 1 - std::pow(0.99, PacketLossModel::real_packets(bytes));
    EXPECT_NEAR(double(lost) / n, expected, 4 * std::sqrt(expected * (1 - expected) / n)) << bytes;
  }
}

}  // namespace
}  // namespace geotrain::sim
