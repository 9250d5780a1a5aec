// The flow-level network model (network.model = "flow"): the same hosts,
// DC LANs and WAN links as SimNetwork, but a message is a flow of its wire
// bytes, not packets. What it models, and why each approximation holds:
// - Links are directed (full duplex): a host's link to its DC switch and back,
//   each WAN link each way. Routes take the fewest WAN hops (as ns-3's global
//   routing does).
// - Every ordered node pair has one TCP connection that sends its queued
//   messages back to back, highest priority first (as SimTransport does).
//   While it has bytes queued it is one flow; active flows share every link
//   they cross max-min fairly (sim/max_min.h), each also capped by its send
//   buffer over its round trip (the same buffer rule as ns-3's) and, on a
//   lossy path, by TCP's loss-limited rate (Mathis et al. 1997: MSS / RTT x
//   sqrt(3 / (2 b p)), b segments per ACK).
// - Rates are recomputed only when a flow starts or ends or a link's bandwidth
//   changes, and then only for the flows that share a link with the change,
//   transitively (one connected component of the link-flow graph); all the
//   changes of one instant are re-rated together.
// - A message arrives when its last byte has left at the flow's rate plus the
//   path's latency plus one packet's serialisation at every other hop
//   (store and forward).
// - TCP start-up: a connection's first message waits for the handshake (one
//   round trip) and pays slow start's extra round trips from the scenario's
//   initial window, computed for that message's size and the path's
//   bandwidth-delay product. A warm connection does not restart slow start.
// - Bytes counted per hop, as ns-3 counts them: every segment's payload plus
//   its headers (sent 1 / (1 - loss) times on a lossy path), and the ACKs that
//   come back (one per delayed-ACK count).
// - Best effort (UDP): the message's datagrams each survive the path's loss
//   with the seeded random stream; the message arrives only if all do.
// Known to differ from ns-3 (README): TCP losses cost a smooth rate cap here,
// not timeouts; queues never fill, so nothing is dropped at switches; short
// messages on warm connections see no window growth.
#pragma once
#include <ns3/core-module.h>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "core/config/scenario.h"
#include "core/run/monitor.h"
#include "core/topology/deployment.h"
#include "sim/event_loop.h"
#include "sim/max_min.h"
#include "sim/transport.h"

namespace geotrain::sim {

class FlowNetwork : public Transport {
 public:
  using Deliver = std::function<void(const Message&)>;
  // Builds links and schedules the topology's bandwidth traces.
  // Runs on `loop` (any loop: it needs nothing of ns-3's Simulator).
  FlowNetwork(const Scenario& sc, const Deployment& dep, EventLoop& loop, Deliver deliver);
  ~FlowNetwork() override;
  void send(Message msg) override;

  NetCounters counters() const { return counters_; }
  nlohmann::json settings() const;
  // {dropped_at_sending_hosts: 0, dropped_at_switches: 0, best_effort_lost, rate_recomputations, ...}
  nlohmann::json drops() const;

 private:
  struct Link {
    double bytes_per_s = 0;  // current capacity, wire bytes
    bool wan = false;
    std::vector<int> flows;  // active connections crossing it
  };
  struct Path {
    std::vector<int> links;
    double latency_s = 0;        // one way
    double forward_extra_s = 0;  // store and forward: one packet at every hop but the slowest
    std::uint32_t segment = 0;
    double loss = 0;  // per packet, over the path
    double cap = 0;   // bytes per second the window (and loss) allow; 0: none
  };
  struct Conn;

  int add_link(const LinkSpec& spec, bool wan);
  // WAN link i's two directions, made on first use: a full mesh of a thousand
  // DCs has half a million links, of which a run crosses a few thousand, and
  // an array of them all scattered those few over 43 MB (a TLB miss each).
  std::array<int, 2> wan_links(int i);
  const Path& path(NodeId from, NodeId to);
  Conn& conn(NodeId from, NodeId to, bool datagram);
  void open(Conn& c);                             // the handshake and slow start, then start()
  void start(Conn& c);                            // becomes an active flow
  void next_message(Conn& c);                     // head of the queue onto the wire
  void complete(Conn& c);                         // the head message's last byte left
  void changed(const std::vector<int>& links);    // re-rate them once this instant's changes are in
  void recompute(const std::vector<int>& links);  // the component reached from these links
  void advance(Conn& c);                          // bytes sent since the last update
  void schedule_completion(Conn& c);
  void set_bandwidth(int link, double mbps);
  void count(const Conn& c, std::uint64_t wire_bytes);
  // A message's bytes on one link: payload plus each segment's (or datagram's) headers.
  std::uint64_t on_wire(std::uint64_t payload, std::uint32_t segment, bool datagram) const;

  ns3::Time now() const { return ns3::NanoSeconds(loop_.now()); }
  EventHandle after(ns3::Time delay, std::function<void()> fn) {
    return loop_.schedule(delay.GetNanoSeconds(), std::move(fn));
  }

  EventLoop& loop_;
  const Scenario& sc_;
  const Deployment& dep_;
  Deliver deliver_;
  WanRoutes routes_;  // the fewest-hop routes between DCs
  std::vector<Link> links_;
  std::vector<int> up_, down_;                       // by node: its link to its switch, and back
  std::vector<std::array<int, 2>> wan_dir_;          // by WAN link: [a->b, b->a], -1 until made
  std::map<std::pair<NodeId, NodeId>, Path> paths_;  // cached routes
  std::vector<std::unique_ptr<Conn>> conns_;         // index = flow id
  // By sending node: its connections as (to << 1 | datagram, flow id), sorted.
  // Every message looks its connection up; a node has few peers (a server's
  // children), so one short contiguous list beats a hash table's scattered
  // nodes, whose cache misses grew with the node count.
  std::vector<std::vector<std::pair<std::uint64_t, int>>> conn_index_;
  // recompute()'s scratch (and the solver's), kept between calls so that a
  // re-rating allocates nothing once the largest component has been seen.
  std::vector<int> local_;       // a link's index in the component, -1 outside
  std::vector<char> flow_seen_;  // a connection already in the component
  std::vector<int> comp_links_, comp_flows_, stack_;
  std::vector<double> capacity_;
  std::vector<MaxMinFlow> flows_;
  MaxMinSolver solver_;
  std::vector<int> dirty_;  // links changed at this instant, not yet re-rated
  bool recompute_pending_ = false;
  std::mt19937_64 loss_rng_;
  NetCounters counters_;
  std::uint64_t seq_ = 0, recomputations_ = 0, recomputed_flows_ = 0, best_effort_lost_ = 0;
};

}  // namespace geotrain::sim
