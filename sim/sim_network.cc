#include "sim/sim_network.h"

#include <ns3/core-module.h>
#include <ns3/traffic-control-module.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "sim/capped_cubic.h"
#include "sim/link_queue.h"
#include "sim/link_sizing.h"
#include "sim/packet_loss_model.h"

namespace geotrain::sim {
namespace {

void count_bytes(std::uint64_t* counter, ns3::Ptr<const ns3::Packet> p) { *counter += p->GetSize(); }
void count_packet(std::uint64_t* counter, ns3::Ptr<const ns3::Packet>) { ++*counter; }

ns3::DataRate rate(double mbps) { return ns3::DataRate(std::uint64_t(mbps * 1e6)); }

// Largest bandwidth-delay product over host-to-host paths (two LAN hops plus
// the WAN hop); the TCP buffers need at least this to fill the pipe.
double max_bdp_bytes(const Topology& t) {
  double lan_lat = 0, lan_bw = 0;
  for (const auto& d : t.dcs) {
    lan_lat = std::max(lan_lat, d.lan.latency_ms);
    lan_bw = std::max(lan_bw, d.lan.bandwidth_mbps);
  }
  double bdp = bdp_bytes(lan_bw, 2 * lan_lat);
  for (const auto& w : t.wan) bdp = std::max(bdp, bdp_bytes(fastest_mbps(w.link), w.link.latency_ms + 2 * lan_lat));
  return bdp;
}

LinkQueue& queue_of(const ns3::Ptr<ns3::PointToPointNetDevice>& d) {
  return *ns3::DynamicCast<LinkQueue>(d->GetQueue());
}

}  // namespace

SimNetwork::SimNetwork(const Scenario& sc, const Deployment& dep) {
  using namespace ns3;
  const NetworkSpec& n = sc.network;
  const Topology& topo = sc.topology;
  queue_bytes_ = std::uint64_t(n.queue_bytes);
  segment_bytes_ = std::uint32_t(n.segment_bytes);
  mtu_ = segment_bytes_ + kSegmentHeaderBytes;
  initial_cwnd_bytes_ = std::uint32_t(n.initial_cwnd_bytes);
  min_rto_ms_ = n.min_rto_ms;
  tcp_buffer_bytes_ = std::uint64_t(n.tcp_buffer_bytes);
  // The listeners' receive buffers: twice the largest send buffer. When the
  // receiver's window (rounded down by window scaling) is all that limits a
  // sender with a partial segment left, ns-3 3.37 sends a zero-byte segment and
  // crashes in TcpRateLinux::SkbSent (seen with 3 MB tensors on this topology).
  const std::uint64_t buffer = send_buffer(max_bdp_bytes(topo), segment_bytes_);
  Config::SetDefault("ns3::TcpSocket::SegmentSize", UintegerValue(n.segment_bytes));
  Config::SetDefault("ns3::TcpSocket::SndBufSize", UintegerValue(buffer));
  Config::SetDefault("ns3::TcpSocket::RcvBufSize", UintegerValue(2 * buffer));
  Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(initial_cwnd_segments(segment_bytes_)));
  Config::SetDefault("ns3::TcpSocketBase::MinRto", TimeValue(MilliSeconds(n.min_rto_ms)));
  // Linux's timer: RTO = srtt + max(4 rttvar, min_rto), not ns-3's max(min_rto,
  // srtt + 4 rttvar). With ns-3's, a steady 200 ms RTT gives an RTO of about
  // 200 ms, which fires before a delayed ACK returns: one spurious timeout per
  // segment, for ever (measured: 1,240 s per round for a 7.45 MB message at
  // 1448-byte segments over 50 Mbps / 100 ms). ns-3 adds its clock
  // granularity where Linux adds its minimum.
  Config::SetDefault("ns3::TcpSocketBase::ClockGranularity", TimeValue(MilliSeconds(n.min_rto_ms)));
  Config::SetDefault("ns3::TcpSocket::DelAckCount", UintegerValue(delayed_ack_count(segment_bytes_)));
  // Linux's delayed-ACK timer (40 ms), not ns-3's 200 ms: with a 200 ms minimum
  // RTO, a 200 ms delayed ACK races the retransmission timer and a window of
  // one segment turns into spurious timeouts forever (measured: 56 s for
  // 400 KB on a 10 Gbps LAN).
  Config::SetDefault("ns3::TcpSocket::DelAckTimeout", TimeValue(MilliSeconds(40)));
  Config::SetDefault("ns3::TcpL4Protocol::SocketType", TypeIdValue(CappedCubic::GetTypeId()));
  settings_ = {
      {"segment_bytes", n.segment_bytes},
      {"segment_rule",
       "per path: segment_bytes at most; where a link is slow, what it sends in max(1 ms, latency/4) "
       "(and in min_rto/8) at its slowest, at least 1448; 1448 where a link is lossy"},
      {"mtu_bytes", mtu_},
      {"tcp_buffer_bytes",
       n.tcp_buffer_bytes == 0
           ? nlohmann::json("per path: 1.25 x its bandwidth-delay product + 2 segments, at least 128 KiB")
           : nlohmann::json(n.tcp_buffer_bytes)},
      {"tcp_receive_buffer_bytes", 2 * buffer},
      {"initial_cwnd_bytes", n.initial_cwnd_bytes},
      {"queue_bytes", n.queue_bytes == 0 ? nlohmann::json("at DC switches max(link bandwidth x 2 x latency, min(1 MiB, "
                                                          "100 ms of sending), 2 packets), following bandwidth traces")
                                         : nlohmann::json(n.queue_bytes)},
      {"host_queues", "never drop (what Linux keeps in the socket waits in the host's queue)"},
      {"loss_model", "per real 1448-byte packet"},
      {"delayed_ack_timeout_ms", 40},
      {"min_rto_ms", n.min_rto_ms},
      {"rto", "srtt + max(4 x rttvar, min_rto), as Linux"},
      {"tcp_variant", "TcpCubic, cwnd held below 2 GiB (ns-3 3.37 lets it wrap)"},
      {"network_model", "ns-3 " + std::string("3.37") + " point-to-point"}};

  hosts_.Create(std::uint32_t(dep.nodes.size()));
  switches_.Create(std::uint32_t(topo.dcs.size()));
  InternetStackHelper stack;
  stack.Install(hosts_);
  stack.Install(switches_);
  // Link queues take whatever fits their limit and say they are never full, so
  // the traffic-control layer (which cannot tell which device it drops for)
  // should never drop: count it anyway, per node kind, as a check. A trace
  // source that is not there would zero the counter silently: refuse.
  auto count_tc_drops = [](const NodeContainer& nodes, std::uint64_t* counter) {
    for (std::uint32_t i = 0; i < nodes.GetN(); ++i)
      if (!nodes.Get(i)->GetObject<TrafficControlLayer>()->TraceConnectWithoutContext(
              "TcDrop", MakeBoundCallback(&count_packet, counter)))
        throw std::logic_error("ns-3's TrafficControlLayer has no TcDrop trace source");
  };
  count_tc_drops(hosts_, &tc_drops_[0]);
  count_tc_drops(switches_, &tc_drops_[1]);

  const int wan_entries = int(topo.wan.size());
  for (const auto& w : topo.wan) {
    Entry e;
    e.name = topo.dcs[w.a].name + " <-> " + topo.dcs[w.b].name;
    e.wan = true;
    entries_.push_back(e);
  }
  for (const auto& d : topo.dcs) entries_.push_back({"lan " + d.name, false, 0, 0, 0, 0});

  std::vector<int> hosts_in(topo.dcs.size(), 0);
  double lan_lat = 0;
  for (const auto& node : dep.nodes) {
    ++hosts_in[node.dc];
    lan_lat = std::max(lan_lat, topo.dcs[node.dc].lan.latency_ms);
  }
  Ipv4AddressHelper addr;
  addr.SetBase("10.0.0.0", "255.255.255.252");
  addresses_.resize(dep.nodes.size());
  for (const auto& node : dep.nodes) {
    Ipv4InterfaceContainer ifc;
    const LinkSpec& lan = topo.dcs[node.dc].lan;
    connect(hosts_.Get(node.id), switches_.Get(node.dc), lan, false, wan_entries + node.dc,
            {hosts_in[node.dc], 2 * lan.latency_ms}, addr, &ifc);
    addresses_[node.id] = ifc.GetAddress(0);
  }
  for (std::size_t i = 0; i < topo.wan.size(); ++i) {
    const auto& w = topo.wan[i];
    Ipv4InterfaceContainer ifc;
    const int l = connect(switches_.Get(w.a), switches_.Get(w.b), w.link, true, int(i),
                          {1, w.link.latency_ms + 2 * lan_lat}, addr, &ifc);
    for (const auto& p : w.link.trace)
      Simulator::Schedule(Seconds(p.t_s), [this, l, mbps = p.bandwidth_mbps] { set_bandwidth(links_[l], mbps); });
  }
  Ipv4GlobalRoutingHelper::PopulateRoutingTables();
}

std::uint64_t SimNetwork::send_buffer(double bdp_bytes, std::uint32_t segment) const {
  return send_buffer_bytes(bdp_bytes, segment, tcp_buffer_bytes_);
}

std::uint32_t SimNetwork::segment_cap(const LinkSpec& l) const {
  return link_segment_bytes(l, segment_bytes_, min_rto_ms_);
}

std::uint32_t SimNetwork::initial_cwnd_segments(std::uint32_t segment_bytes) const {
  return sim::initial_cwnd_segments(initial_cwnd_bytes_, segment_bytes);
}

// Delayed ACKs count segments too: with super-segments, "ACK every 2nd segment"
// leaves a message's last segment waiting for the delayed-ACK timer (measured:
// rounds 10x slower). Scale it like the initial window.
std::uint32_t SimNetwork::delayed_ack_count(std::uint32_t segment_bytes) {
  return std::max<std::uint32_t>(1, std::uint32_t(std::lround(2.0 * 1460 / segment_bytes)));
}

int SimNetwork::connect(ns3::Ptr<ns3::Node> a, ns3::Ptr<ns3::Node> b, const LinkSpec& spec, bool wan, int entry,
                        Windows windows, ns3::Ipv4AddressHelper& addr, ns3::Ipv4InterfaceContainer* ifc) {
  using namespace ns3;
  LinkQueue::GetTypeId();  // registers the type for the helper's factory
  PointToPointHelper p2p;
  p2p.SetDeviceAttribute("DataRate", DataRateValue(rate(spec.bandwidth_mbps)));
  p2p.SetDeviceAttribute("Mtu", UintegerValue(mtu_));
  p2p.SetChannelAttribute("Delay", TimeValue(NanoSeconds(std::int64_t(std::llround(spec.latency_ms * 1e6)))));
  p2p.SetQueue("geotrain::LinkQueue<Packet>");
  NetDeviceContainer devs = p2p.Install(a, b);
  Link l;
  l.entry = entry;
  l.wan = wan;
  l.at_host[0] = !wan;  // a host-to-switch link: device 0 is the host's
  l.latency_ms = spec.latency_ms;
  l.loss = spec.loss;
  l.fastest_mbps = fastest_mbps(spec);
  l.windows = windows;
  l.segment_cap = segment_cap(spec);
  Entry& e = entries_[entry];
  e.segment_bytes = std::max(e.segment_bytes, l.segment_cap);
  const int index = int(links_.size());
  for (std::uint32_t i = 0; i < 2; ++i) {
    l.devs[i] = DynamicCast<PointToPointNetDevice>(devs.Get(i));
    device_link_[PeekPointer(devs.Get(i))] = {index, int(i)};
  }
  links_.push_back(l);
  set_bandwidth(links_.back(), spec.bandwidth_mbps);
  *ifc = addr.Assign(devs);
  addr.NewNetwork();
  TrafficControlHelper().Uninstall(devs);  // plain drop-tail, not FqCoDel
  std::uint64_t* counter = wan ? &counters_.wan_bytes : &counters_.lan_bytes;
  for (std::uint32_t i = 0; i < devs.GetN(); ++i) {
    devs.Get(i)->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&count_bytes, counter));
    if (spec.loss > 0) {
      Ptr<PacketLossModel> em = CreateObject<PacketLossModel>(spec.loss, next_stream_++);
      devs.Get(i)->SetAttribute("ReceiveErrorModel", PointerValue(em));
      devs.Get(i)->TraceConnectWithoutContext("PhyRxDrop", MakeBoundCallback(&count_packet, &e.loss_drops));
    }
  }
  return index;
}

// The windows that may arrive at a switch port at once, at this bandwidth:
// each 1.25 x the bandwidth-delay product of a path across the link plus two
// segments (a send buffer without its 128 KiB minimum, which would hold
// seconds of data when a trace has cut the bandwidth), headers included.
std::uint64_t SimNetwork::windows_bytes(const Link& l, double mbps) const {
  const std::uint32_t seg = l.segment_cap;
  const std::uint64_t window = std::uint64_t(1.25 * bdp_bytes(mbps, l.windows.path_latency_ms)) + 2 * seg;
  return std::uint64_t(l.windows.count) * ((window + seg - 1) / seg) * (seg + kSegmentHeaderBytes);
}

// A new bandwidth for both directions, and switch queues sized for it.
void SimNetwork::set_bandwidth(Link& l, double mbps) {
  for (int i = 0; i < 2; ++i) {
    l.devs[i]->SetDataRate(rate(mbps));
    if (l.at_host[i]) {
      queue_of(l.devs[i]).set_limit_bytes(LinkQueue::kUnlimited);
      continue;
    }
    const std::uint32_t largest = l.segment_cap + kSegmentHeaderBytes;
    queue_of(l.devs[i]).set_limit_bytes(
        queue_bytes_ > 0 ? std::max<std::uint64_t>(queue_bytes_, 2 * largest)
                         : std::max(queue_limit_bytes(mbps, l.latency_ms, largest), windows_bytes(l, mbps)));
  }
}

const PathInfo& SimNetwork::path(NodeId from, NodeId to) {
  using namespace ns3;
  auto [it, fresh] = paths_.try_emplace({from, to});
  PathInfo& p = it->second;
  if (!fresh) return p;
  p.segment_bytes = segment_bytes_;
  double bottleneck = 1e12, latency = 0;
  Ptr<Node> node = host(from);
  Ipv4Header h;
  h.SetDestination(address(to));
  for (int hop = 0; node != host(to); ++hop) {
    Socket::SocketErrno err;
    Ptr<Ipv4Route> r =
        hop > 64 ? nullptr : node->GetObject<Ipv4>()->GetRoutingProtocol()->RouteOutput(nullptr, h, nullptr, err);
    auto d = r ? device_link_.find(PeekPointer(r->GetOutputDevice())) : device_link_.end();
    if (d == device_link_.end())
      throw std::logic_error("simulated network: no route from node " + std::to_string(from) + " to " +
                             std::to_string(to));
    const Link& l = links_[d->second.first];
    if (std::find(p.entries.begin(), p.entries.end(), l.entry) == p.entries.end()) p.entries.push_back(l.entry);
    p.segment_bytes = std::min(p.segment_bytes, l.segment_cap);
    p.wan = p.wan || l.wan;
    p.lossy = p.lossy || l.loss > 0;
    bottleneck = std::min(bottleneck, l.fastest_mbps);
    latency += l.latency_ms;
    node = l.devs[1 - d->second.second]->GetNode();
  }
  p.send_buffer = send_buffer(bdp_bytes(bottleneck, latency), p.segment_bytes);
  return p;
}

void SimNetwork::count_retransmitted(const PathInfo& p, std::uint64_t bytes) {
  class_rtx_[p.wan ? 1 : 0] += bytes;
  for (int e : p.entries) entries_[e].retransmitted_bytes += bytes;
}

void SimNetwork::count_rto(const PathInfo& p) {
  ++class_rtos_[p.wan ? 1 : 0];
  for (int e : p.entries) ++entries_[e].rtos;
}

std::uint64_t SimNetwork::queue_drops(const Link& l, bool host_side) const {
  std::uint64_t n = 0;
  for (int i = 0; i < 2; ++i)
    if (l.at_host[i] == host_side) n += queue_of(l.devs[i]).dropped_packets();
  return n;
}

nlohmann::json SimNetwork::drops() const {
  std::vector<std::uint64_t> queue(entries_.size(), 0);
  for (const auto& l : links_) queue[l.entry] += queue_drops(l, false);
  std::uint64_t class_queue[2] = {0, 0}, class_loss[2] = {0, 0};  // [lan, wan]
  nlohmann::json links = nlohmann::json::array();
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    const Entry& e = entries_[i];
    class_queue[e.wan] += queue[i];
    class_loss[e.wan] += e.loss_drops;
    links.push_back({{"link", e.name},
                     {"class", e.wan ? "wan" : "lan"},
                     {"segment_bytes", e.segment_bytes},
                     {"queue_drops", queue[i]},
                     {"loss_drops", e.loss_drops},
                     {"retransmitted_bytes", e.retransmitted_bytes},
                     {"retransmission_timeouts", e.rtos}});
  }
  auto link_class = [&](int c) {
    return nlohmann::json{{"queue_drops", class_queue[c]},
                          {"loss_drops", class_loss[c]},
                          {"retransmitted_bytes", class_rtx_[c]},
                          {"retransmission_timeouts", class_rtos_[c]}};
  };
  return {{"dropped_at_sending_hosts", drops_at_sending_hosts()},
          {"dropped_at_switches", tc_drops_[1] + class_queue[0] + class_queue[1]},
          {"retransmitted_bytes", class_rtx_[0] + class_rtx_[1]},
          {"retransmission_timeouts", class_rtos_[0] + class_rtos_[1]},
          {"lan", link_class(0)},
          {"wan", link_class(1)},
          {"links", links}};
}

std::uint64_t SimNetwork::drops_at_sending_hosts() const {
  std::uint64_t n = tc_drops_[0];
  for (const auto& l : links_) n += queue_drops(l, true);
  return n;
}

nlohmann::json SimNetwork::settings() const {
  nlohmann::json s = settings_;
  std::map<std::uint32_t, int> by_segment;
  for (const auto& [k, p] : paths_) {
    (void)k;
    ++by_segment[p.segment_bytes];
  }
  nlohmann::json seg = nlohmann::json::object();
  for (const auto& [bytes, count] : by_segment) seg[std::to_string(bytes)] = count;
  s["paths_by_segment_bytes"] = seg;
  return s;
}

NodeId SimNetwork::node_of(ns3::Ipv4Address a) const {
  for (std::size_t i = 0; i < addresses_.size(); ++i)
    if (addresses_[i] == a) return NodeId(i);
  return -1;
}

}  // namespace geotrain::sim
