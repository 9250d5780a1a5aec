// The simulated network in ns-3: one host node per role, one switch node per
// data centre, a point-to-point link from every host to its DC's switch (the
// DC's LAN figures) and a point-to-point WAN link per connected DC pair
// (bandwidth, one-way latency, packet loss, bandwidth trace).
//
// What keeps it faithful to a Linux host on a real network (README, "How
// faithful the simulation is"):
// - A sender never loses its own packets. Linux holds what a full device queue
//   cannot take in the socket (TCP small queues); ns-3 has no such path back,
//   so a host's queue takes everything its sockets send (bounded by their send
//   buffers). Only DC switches drop, from queues sized by link_sizing's rule,
//   resized when a bandwidth trace changes a link's bandwidth, and never
//   smaller than the windows that may arrive at once at the current bandwidth:
//   one at a WAN port (a sender idle between rounds sends its whole window at
//   LAN speed), one per host of the DC at a LAN port (incast).
// - Each connection's send buffer is sized to its own path's bandwidth-delay
//   product, not the largest in the topology.
// - Every connection's segment size is chosen for its path (segment_bytes at
//   most; smaller where a link is slow, see link_sizing.h; 1448 bytes, real
//   packets, where a link is lossy), and its initial window and delayed-ACK
//   count are converted from bytes to that segment.
// - Loss is drawn per real packet (packet_loss_model.h).
//
// Owns nothing after Simulator::Destroy(); construct one per simulation.
#pragma once
#include <ns3/internet-module.h>
#include <ns3/network-module.h>
#include <ns3/point-to-point-module.h>

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/config/scenario.h"
#include "core/run/monitor.h"
#include "core/topology/deployment.h"

namespace geotrain::sim {

// The route between two hosts, and the TCP settings chosen for it.
struct PathInfo {
  std::vector<int> entries;         // the report entries it crosses (WAN links, then DC LANs), once each
  std::uint32_t segment_bytes = 0;  // TCP segment on this path
  std::uint64_t send_buffer = 0;    // TCP send buffer: 1.25 x the path's bandwidth-delay product
  bool wan = false;                 // crosses a WAN link
  bool lossy = false;               // crosses a link with loss
};

class SimNetwork {
 public:
  // Sets ns-3 TCP defaults, builds nodes and links, populates routing tables.
  SimNetwork(const Scenario& sc, const Deployment& dep);

  ns3::Ptr<ns3::Node> host(NodeId id) const { return hosts_.Get(std::uint32_t(id)); }
  int host_count() const { return int(hosts_.GetN()); }
  ns3::Ipv4Address address(NodeId id) const { return addresses_[id]; }
  NodeId node_of(ns3::Ipv4Address a) const;  // -1 when unknown
  // The route from one host to another (traced through ns-3's routing tables
  // once, then cached) and its segment size.
  const PathInfo& path(NodeId from, NodeId to);
  // A connection's initial window and delayed-ACK count, in its segments.
  std::uint32_t initial_cwnd_segments(std::uint32_t segment_bytes) const;
  static std::uint32_t delayed_ack_count(std::uint32_t segment_bytes);
  // Bytes put on the wire so far (link-layer, every hop counted once per hop).
  NetCounters counters() const { return counters_; }
  // The TCP/link settings actually used (for summary.json).
  nlohmann::json settings() const;
  // What TCP connections report, charged to every entry of their path.
  void count_retransmitted(const PathInfo& p, std::uint64_t bytes);
  void count_rto(const PathInfo& p);
  // Drops, retransmitted bytes and retransmission timeouts: in total, per
  // link class and per WAN link / DC LAN. For summary.json.
  nlohmann::json drops() const;

 private:
  // The windows that may arrive at a switch port at once: one per host of the
  // DC at a LAN port, one at a WAN port; and the latency of a path across it.
  struct Windows {
    int count = 1;
    double path_latency_ms = 0;
  };
  struct Link {
    int entry = 0;  // report entry: the WAN link's index, or W + the DC's index for a LAN link
    bool wan = false;
    double latency_ms = 0, loss = 0, fastest_mbps = 0;
    std::uint32_t segment_cap = 0;  // link_sizing's largest segment across it
    Windows windows;
    std::array<ns3::Ptr<ns3::PointToPointNetDevice>, 2> devs;
    std::array<bool, 2> at_host = {false, false};
  };
  struct Entry {
    std::string name;
    bool wan = false;
    std::uint64_t loss_drops = 0, retransmitted_bytes = 0, rtos = 0;
    std::uint32_t segment_bytes = 0;  // the largest segment any path across it may use
  };
  int connect(ns3::Ptr<ns3::Node> a, ns3::Ptr<ns3::Node> b, const LinkSpec& l, bool wan, int entry, Windows windows,
              ns3::Ipv4AddressHelper& addr, ns3::Ipv4InterfaceContainer* ifc);
  std::uint64_t windows_bytes(const Link& l, double mbps) const;
  // The largest segment a path across this link may use: segment_bytes,
  // link_sizing's cap, 1448 bytes if the link is lossy.
  std::uint32_t segment_cap(const LinkSpec& l) const;
  // A send buffer for a path with this bandwidth-delay product: 1.25 x it plus
  // two segments, at least 128 KiB, whole segments (or tcp_buffer_bytes if set).
  std::uint64_t send_buffer(double bdp_bytes, std::uint32_t segment) const;
  void set_bandwidth(Link& l, double mbps);
  std::uint64_t queue_drops(const Link& l, bool host_side) const;
  std::uint64_t drops_at_sending_hosts() const;

  std::vector<Link> links_;
  std::vector<Entry> entries_;
  std::unordered_map<const ns3::NetDevice*, std::pair<int, int>> device_link_;  // -> (link, side)
  std::map<std::pair<NodeId, NodeId>, PathInfo> paths_;
  std::uint64_t tc_drops_[2] = {0, 0};    // [hosts, switches]: dropped by the traffic-control layer (never, by design)
  std::uint64_t class_rtx_[2] = {0, 0};   // [lan, wan] path class: retransmitted bytes
  std::uint64_t class_rtos_[2] = {0, 0};  // [lan, wan] path class: retransmission timeouts
  ns3::NodeContainer hosts_, switches_;
  std::vector<ns3::Ipv4Address> addresses_;
  NetCounters counters_;
  nlohmann::json settings_;
  std::uint32_t segment_bytes_ = 64000, mtu_ = 64100, initial_cwnd_bytes_ = 14600;
  double min_rto_ms_ = 200;
  std::uint64_t queue_bytes_ = 0;       // 0 = per link, link_sizing's rule
  std::uint64_t tcp_buffer_bytes_ = 0;  // 0 = per path
  std::int64_t next_stream_ = 1000;     // ns-3 random stream numbers for loss models
};

}  // namespace geotrain::sim
