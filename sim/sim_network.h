// The simulated network in ns-3: one host node per role, one switch node per
// data centre, a point-to-point link from every host to its DC's switch (the
// DC's LAN figures) and a point-to-point WAN link per connected DC pair
// (bandwidth, one-way latency, packet loss, bandwidth trace). Plain drop-tail
// device queues (ns-3's default FqCoDel root disc is removed). TCP settings are
// derived from the scenario: super-segments for speed, the initial window
// converted from bytes to segments, buffers sized to the bandwidth-delay product.
//
// Owns nothing after Simulator::Destroy(); construct one per simulation.
#pragma once
#include <ns3/internet-module.h>
#include <ns3/network-module.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/config/scenario.h"
#include "core/deployment.h"
#include "core/monitor.h"

namespace geotrain::sim {

class SimNetwork {
 public:
  // Sets ns-3 TCP defaults, builds nodes and links, populates routing tables.
  SimNetwork(const Scenario& sc, const Deployment& dep);

  ns3::Ptr<ns3::Node> host(NodeId id) const { return hosts_.Get(std::uint32_t(id)); }
  int host_count() const { return int(hosts_.GetN()); }
  ns3::Ipv4Address address(NodeId id) const { return addresses_[id]; }
  NodeId node_of(ns3::Ipv4Address a) const;  // -1 when unknown
  // Bytes put on the wire so far (link-layer, every hop counted once per hop).
  NetCounters counters() const { return counters_; }
  // The TCP/link settings actually used (for summary.json).
  const nlohmann::json& settings() const { return settings_; }
  std::uint32_t mtu() const { return mtu_; }
  // Packets lost so far: dropped by a full queue at a sending host (ns-3 has
  // no backpressure from it to the socket, which Linux has) or at a DC switch,
  // and, per link class, by the link's loss model. For summary.json.
  nlohmann::json drops() const;
  std::uint64_t drops_at_sending_hosts() const;

 private:
  ns3::NetDeviceContainer connect(ns3::Ptr<ns3::Node> a, ns3::Ptr<ns3::Node> b, const LinkSpec& l, bool wan,
                                  ns3::Ipv4AddressHelper& addr, ns3::Ipv4InterfaceContainer* ifc);
  struct Device {
    ns3::Ptr<ns3::NetDevice> dev;
    bool wan, at_host;
  };
  std::vector<Device> devices_;
  std::uint64_t loss_drops_[2] = {0, 0};  // [lan, wan]: packets the links' error models dropped
  std::uint64_t tc_drops_[2] = {0, 0};    // [hosts, switches]: dropped while the device queue was full
  ns3::NodeContainer hosts_, switches_;
  std::vector<ns3::Ipv4Address> addresses_;
  NetCounters counters_;
  nlohmann::json settings_;
  std::uint32_t mtu_ = 1500;
  std::uint64_t queue_bytes_ = 0;    // 0 = per link: max(1 MiB, bandwidth-delay product)
  std::int64_t next_stream_ = 1000;  // ns-3 random stream numbers for error models
};

}  // namespace geotrain::sim
