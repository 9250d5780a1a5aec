#include "sim/sim_network.h"

#include <ns3/core-module.h>
#include <ns3/point-to-point-module.h>
#include <ns3/traffic-control-module.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace geotrain::sim {
namespace {

void count_bytes(std::uint64_t* counter, ns3::Ptr<const ns3::Packet> p) { *counter += p->GetSize(); }
void count_packet(std::uint64_t* counter, ns3::Ptr<const ns3::Packet>) { ++*counter; }

std::uint64_t queue_drops(const ns3::Ptr<ns3::NetDevice>& d) {
  const auto p2p = ns3::DynamicCast<ns3::PointToPointNetDevice>(d);
  return p2p ? p2p->GetQueue()->GetTotalDroppedPackets() : 0;
}

ns3::DataRate rate(double mbps) { return ns3::DataRate(std::uint64_t(mbps * 1e6)); }

// Largest bandwidth-delay product over host-to-host paths (two LAN hops plus
// the WAN hop); the TCP buffers need at least this to fill the pipe.
double max_bdp_bytes(const Topology& t) {
  double lan_lat = 0, lan_bw = 0;
  for (const auto& d : t.dcs) {
    lan_lat = std::max(lan_lat, d.lan.latency_ms);
    lan_bw = std::max(lan_bw, d.lan.bandwidth_mbps);
  }
  double bdp = lan_bw * 1e6 / 8 * 2 * (2 * lan_lat) / 1e3;
  for (const auto& w : t.wan) {
    double bw = w.link.bandwidth_mbps;
    for (const auto& p : w.link.trace) bw = std::max(bw, p.bandwidth_mbps);
    bdp = std::max(bdp, bw * 1e6 / 8 * 2 * (w.link.latency_ms + 2 * lan_lat) / 1e3);
  }
  return bdp;
}

}  // namespace

SimNetwork::SimNetwork(const Scenario& sc, const Deployment& dep) {
  using namespace ns3;
  const NetworkSpec& n = sc.network;
  const Topology& topo = sc.topology;
  queue_bytes_ = std::uint64_t(n.queue_bytes);
  // IP (20) + TCP (20) + options (timestamps 12, SACK blocks up to 36) on top of the segment.
  mtu_ = std::uint32_t(n.segment_bytes + 100);
  const std::uint32_t cwnd_segments =
      std::max<std::uint32_t>(1, std::uint32_t(std::lround(double(n.initial_cwnd_bytes) / n.segment_bytes)));
  std::uint64_t buffer = std::uint64_t(n.tcp_buffer_bytes);
  if (buffer == 0)
    buffer = std::max<std::uint64_t>(131072, std::uint64_t(1.25 * max_bdp_bytes(topo)) + 2 * n.segment_bytes);
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(n.segment_bytes));
  // Whole segments, and a receive buffer twice the send buffer: when the
  // receiver's window (rounded down by window scaling) is all that limits a
  // sender with a partial segment left, ns-3 3.37 sends a zero-byte segment and
  // crashes in TcpRateLinux::SkbSent (seen with 3 MB tensors on this topology).
  // ns-3 keeps buffer sizes in 32 bits and TCP's window scaling stops at 1 GiB:
  // the receive buffer (twice this) must stay below that, whatever the BDP.
  buffer = std::min<std::uint64_t>(buffer, std::uint64_t(1) << 29);
  buffer = (buffer + n.segment_bytes - 1) / n.segment_bytes * n.segment_bytes;
  Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buffer));
  Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(2 * buffer));
  Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(cwnd_segments));
  Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(n.min_rto_ms)));
  // Delayed ACKs count segments too: with super-segments, "ACK every 2nd segment"
  // leaves a message's last segment waiting for the 200 ms delayed-ACK timer
  // (measured: rounds 10x slower). Scale it like the initial window.
  const std::uint32_t delack = std::max<std::uint32_t>(1, std::uint32_t(std::lround(2.0 * 1460 / n.segment_bytes)));
  Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delack));
  // Linux's delayed-ACK timer (40 ms), not ns-3's 200 ms: with a 200 ms minimum
  // RTO, a 200 ms delayed ACK races the retransmission timer and a window of
  // one segment turns into spurious timeouts forever (measured: 56 s for
  // 400 KB on a 10 Gbps LAN).
  Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(40)));
  settings_ = {{"segment_bytes", n.segment_bytes},
               {"mtu_bytes", mtu_},
               {"tcp_buffer_bytes", buffer},
               {"initial_cwnd_segments", cwnd_segments},
               {"initial_cwnd_bytes_effective", std::uint64_t(cwnd_segments) * n.segment_bytes},
               {"queue_bytes", n.queue_bytes == 0 ? nlohmann::json("max(1 MiB, link bandwidth x 2 x latency)")
                                                  : nlohmann::json(n.queue_bytes)},
               {"delayed_ack_count", delack},
               {"delayed_ack_timeout_ms", 40},
               {"min_rto_ms", n.min_rto_ms},
               {"tcp_variant", "TcpCubic"},
               {"network_model", "ns-3 " + std::string("3.37") + " point-to-point"}};

  hosts_.Create(std::uint32_t(dep.nodes.size()));
  switches_.Create(std::uint32_t(topo.dcs.size()));
  InternetStackHelper stack;
  stack.Install(hosts_);
  stack.Install(switches_);
  // Without a queue disc, the traffic-control layer drops what it is handed
  // while the device's queue is stopped (full): count those, per node kind. A
  // trace source that is not there would zero the counter silently: refuse.
  auto count_tc_drops = [](const NodeContainer& nodes, std::uint64_t* counter) {
    for (std::uint32_t i = 0; i < nodes.GetN(); ++i)
      if (!nodes.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
              "TcDrop", MakeBoundCallback(&count_packet, counter)))
        throw std::logic_error("ns-3's TrafficControlLayer has no TcDrop trace source");
  };
  count_tc_drops(hosts_, &tc_drops_[0]);
  count_tc_drops(switches_, &tc_drops_[1]);

  Ipv4AddressHelper addr;
  addr.SetBase("10.0.0.0", "255.255.255.252");
  addresses_.resize(dep.nodes.size());
  for (const auto& node : dep.nodes) {
    Ipv4InterfaceContainer ifc;
    connect(hosts_.Get(node.id), switches_.Get(node.dc), topo.dcs[node.dc].lan, false, addr, &ifc);
    addresses_[node.id] = ifc.GetAddress(0);
  }
  for (const auto& w : topo.wan) {
    Ipv4InterfaceContainer ifc;
    NetDeviceContainer devs = connect(switches_.Get(w.a), switches_.Get(w.b), w.link, true, addr, &ifc);
    for (const auto& p : w.link.trace) {
      Ptr<NetDevice> d0 = devs.Get(0), d1 = devs.Get(1);
      const DataRate r = rate(p.bandwidth_mbps);
      Simulator::Schedule(Seconds(p.t_s), [d0, d1, r] {
        d0->SetAttribute("DataRate", DataRateValue(r));
        d1->SetAttribute("DataRate", DataRateValue(r));
      });
    }
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

ns3::NetDeviceContainer SimNetwork::connect(ns3::Ptr<ns3::Node> a, ns3::Ptr<ns3::Node> b, const LinkSpec& l, bool wan,
                                            ns3::Ipv4AddressHelper& addr, ns3::Ipv4InterfaceContainer* ifc) {
  using namespace ns3;
  PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", DataRateValue(rate(l.bandwidth_mbps)));
  p2p.SetDeviceAttribute("Mtu", UintegerValue(mtu_));
  p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(std::int64_t(std::llround(l.latency_ms * 1e6)))));
  // Queues in bytes, so the buffer a link has does not change with the segment size.
  std::uint64_t queue = queue_bytes_;
  if (queue == 0)
    queue = std::max<std::uint64_t>(1 << 20, std::uint64_t(l.bandwidth_mbps * 1e6 / 8 * 2 * l.latency_ms / 1e3));
  queue = std::max<std::uint64_t>(queue, 2 * mtu_);
  p2p.SetQueue(
      "ns3::DropTailQueue<Packet>", "MaxSize",
      QueueSizeValue(QueueSize(QueueSizeUnit::BYTES, std::uint32_t(std::min<std::uint64_t>(queue, 1u << 31)))));
  NetDeviceContainer devs = p2p.Install(a, b);
  for (std::uint32_t i = 0; i < devs.GetN(); ++i)
    devices_.push_back({devs.Get(i), wan, !wan && i == 0});  // host-switch links: device 0 is the host's
  *ifc = addr.Assign(devs);
  addr.NewNetwork();
  TrafficControlHelper().Uninstall(devs);  // plain drop-tail, not FqCoDel
  std::uint64_t* counter = wan ? &counters_.wan_bytes : &counters_.lan_bytes;
  for (std::uint32_t i = 0; i < devs.GetN(); ++i) {
    devs.Get(i)->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&count_bytes, counter));
    if (l.loss > 0) {
      Ptr<RateErrorModel> em = CreateObject<RateErrorModel>();
      em->SetAttribute("ErrorRate", DoubleValue(l.loss));
      em->SetAttribute("ErrorUnit", EnumValue(RateErrorModel::ERROR_UNIT_PACKET));
      em->AssignStreams(next_stream_++);
      devs.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
      devs.Get(i)->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&count_packet, &loss_drops_[wan ? 1 : 0]));
    }
  }
  return devs;
}

nlohmann::json SimNetwork::drops() const {
  std::uint64_t at_switches = tc_drops_[1];
  for (const auto& d : devices_)
    if (!d.at_host) at_switches += queue_drops(d.dev);
  return {{"dropped_at_sending_hosts", drops_at_sending_hosts()},
          {"dropped_at_switches", at_switches},
          {"lan", {{"loss_drops", loss_drops_[0]}}},
          {"wan", {{"loss_drops", loss_drops_[1]}}}};
}

std::uint64_t SimNetwork::drops_at_sending_hosts() const {
  std::uint64_t n = tc_drops_[0];
  for (const auto& d : devices_)
    if (d.at_host) n += queue_drops(d.dev);
  return n;
}

NodeId SimNetwork::node_of(ns3::Ipv4Address a) const {
  for (std::size_t i = 0; i < addresses_.size(); ++i)
    if (addresses_[i] == a) return NodeId(i);
  return -1;
}

}  // namespace geotrain::sim
