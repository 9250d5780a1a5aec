#include "sim/flow_network.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "sim/link_sizing.h"
#include "sim/max_min.h"
#include "sim/sim_network.h"

namespace geotrain::sim {
namespace {

// What a TCP segment carries on a point-to-point link besides its payload:
// PPP 2, IP 20, TCP 20, timestamps 12; also the size of a bare ACK.
constexpr std::uint32_t kTcpWireHeader = 54;
// A best-effort datagram: PPP 2, IP 20, UDP 8, the fragment header 16.
constexpr std::uint32_t kUdpWireHeader = 46;

double mbps_to_bytes(double mbps) { return mbps * 1e6 / 8; }

}  // namespace

struct FlowNetwork::Conn {
  int id = 0;
  NodeId from = -1, to = -1;
  bool datagram = false;
  const Path* path = nullptr;
  std::vector<int> slot;  // while active: its index in each path link's flows, in path order
  std::multimap<std::pair<int, std::uint64_t>, Message> queued;  // by (-priority, arrival)
  bool opened = false, opening = false, active = false;
  std::optional<Message> head;  // on the wire
  double left = 0;              // wire bytes of the head not yet sent
  double rate = 0;              // wire bytes per second
  ns3::Time last;               // when `left` was last brought up to date
  EventHandle done;             // at `due`: the head's last byte, or earlier (then checked and moved)
  ns3::Time due;
};

FlowNetwork::FlowNetwork(const Scenario& sc, const Deployment& dep, EventLoop& loop, Deliver deliver)
    : loop_(loop),
      sc_(sc),
      dep_(dep),
      deliver_(std::move(deliver)),
      routes_(sc.topology),
      loss_rng_(sc.seed * 0x9E3779B97F4A7C15ull + 17) {
  const Topology& t = sc.topology;
  conn_index_.resize(dep.nodes.size());
  links_.reserve(2 * dep.nodes.size());
  for (const auto& n : dep.nodes) {
    up_.push_back(add_link(t.dcs[std::size_t(n.dc)].lan, false));
    down_.push_back(add_link(t.dcs[std::size_t(n.dc)].lan, false));
  }
  wan_dir_.assign(t.wan.size(), {-1, -1});
  for (std::size_t i = 0; i < t.wan.size(); ++i) {
    if (t.wan[i].link.trace.empty()) continue;  // made when a route first crosses it
    const auto [ab, ba] = wan_links(int(i));
    for (const auto& p : t.wan[i].link.trace)
      after(ns3::Seconds(p.t_s), [this, ab = ab, ba = ba, mbps = p.bandwidth_mbps] {
        set_bandwidth(ab, mbps);
        set_bandwidth(ba, mbps);
      });
  }
}

int FlowNetwork::add_link(const LinkSpec& spec, bool wan) {
  Link l;
  l.bytes_per_s = mbps_to_bytes(spec.bandwidth_mbps);
  l.wan = wan;
  links_.push_back(l);
  return int(links_.size()) - 1;
}

std::array<int, 2> FlowNetwork::wan_links(int i) {
  auto& d = wan_dir_[std::size_t(i)];
  if (d[0] < 0) {
    const LinkSpec& spec = sc_.topology.wan[std::size_t(i)].link;
    d[0] = add_link(spec, true);
    d[1] = add_link(spec, true);
  }
  return d;
}

FlowNetwork::~FlowNetwork() = default;

std::uint64_t FlowNetwork::on_wire(std::uint64_t payload, std::uint32_t segment, bool datagram) const {
  const std::uint64_t packets = std::max<std::uint64_t>(1, (payload + segment - 1) / segment);
  return payload + packets * (datagram ? kUdpWireHeader : kTcpWireHeader);
}

const FlowNetwork::Path& FlowNetwork::path(NodeId from, NodeId to) {
  auto [it, fresh] = paths_.try_emplace({from, to});
  Path& p = it->second;
  if (!fresh) return p;
  const Topology& t = sc_.topology;
  const int a = dep_.nodes.at(std::size_t(from)).dc, b = dep_.nodes.at(std::size_t(to)).dc;
  std::vector<const LinkSpec*> specs = {&t.dcs[std::size_t(a)].lan};
  p.links.push_back(up_[std::size_t(from)]);
  if (a != b) {  // the fewest WAN hops (as wan_path)
    const std::vector<int> hops = routes_.route(a, b);
    if (hops.empty())
      throw std::logic_error("flow network: no WAN route from DC " + t.dcs[std::size_t(a)].name + " to " +
                             t.dcs[std::size_t(b)].name);
    int at = a;
    for (int i : hops) {
      const auto& w = t.wan[std::size_t(i)];
      p.links.push_back(wan_links(i)[w.a == at ? 0 : 1]);
      specs.push_back(&w.link);
      at = w.a == at ? w.b : w.a;
    }
  }
  p.links.push_back(down_[std::size_t(to)]);
  specs.push_back(&t.dcs[std::size_t(b)].lan);

  const NetworkSpec& n = sc_.network;
  p.segment = std::uint32_t(n.segment_bytes);
  double bottleneck = 1e18, survive = 1, slowest_hop = 0, hops_s = 0;
  for (const LinkSpec* s : specs) p.segment = std::min(p.segment, link_segment_bytes(*s, p.segment, n.min_rto_ms));
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const LinkSpec& s = *specs[i];
    p.latency_s += s.latency_ms / 1e3;
    survive *= 1 - s.loss;
    bottleneck = std::min(bottleneck, fastest_mbps(s));
    const double packet_s = double(p.segment + kTcpWireHeader) / mbps_to_bytes(s.bandwidth_mbps);
    hops_s += packet_s;
    slowest_hop = std::max(slowest_hop, packet_s);
  }
  p.forward_extra_s = hops_s - slowest_hop;
  p.loss = 1 - survive;
  const double rtt = 2 * p.latency_s;
  if (rtt > 0) {
    const double buffer = double(
        send_buffer_bytes(bdp_bytes(bottleneck, p.latency_s * 1e3), p.segment, std::uint64_t(n.tcp_buffer_bytes)));
    p.cap = buffer * double(p.segment + kTcpWireHeader) / p.segment / rtt;
    if (p.loss > 0) {  // Mathis et al. 1997: MSS / RTT x sqrt(3 / (2 b p)), b segments per ACK
      const double b = double(SimNetwork::delayed_ack_count(p.segment));
      p.cap = std::min(p.cap, double(p.segment + kTcpWireHeader) / rtt * std::sqrt(3 / (2 * b * p.loss)));
    }
  }
  return p;
}

FlowNetwork::Conn& FlowNetwork::conn(NodeId from, NodeId to, bool datagram) {
  auto& peers = conn_index_.at(std::size_t(from));
  const std::uint64_t key = std::uint64_t(std::uint32_t(to)) << 1 | datagram;
  auto it = std::lower_bound(peers.begin(), peers.end(), std::make_pair(key, -1));
  if (it == peers.end() || it->first != key) {
    auto c = std::make_unique<Conn>();
    c->id = int(conns_.size());
    c->from = from;
    c->to = to;
    c->datagram = datagram;
    c->path = &path(from, to);
    c->slot.resize(c->path->links.size());
    it = peers.insert(it, {key, c->id});
    conns_.push_back(std::move(c));
  }
  return *conns_[std::size_t(it->second)];
}

void FlowNetwork::send(Message msg) {
  Conn& c = conn(msg.from, msg.to, msg.channel == Channel::kBestEffort);
  c.queued.emplace(std::make_pair(-msg.priority, seq_++), std::move(msg));
  if (c.active || c.opening) return;
  if (c.datagram || c.opened)
    start(c);
  else
    open(c);
}

// A new connection: one round trip of handshake, then the round trips slow
// start adds for its first message (from the initial window, doubling each
// round trip, until the window fills the path's bandwidth-delay product),
// less what it sends meanwhile at the path's rate.
void FlowNetwork::open(Conn& c) {
  c.opening = true;
  const Path& p = *c.path;
  const double rtt = 2 * p.latency_s;
  const double bytes = double(on_wire(c.queued.begin()->second.wire_bytes, p.segment, false));
  double rate = std::numeric_limits<double>::infinity();
  for (int l : p.links) rate = std::min(rate, links_[std::size_t(l)].bytes_per_s);
  const double window0 =
      double(initial_cwnd_segments(std::uint32_t(sc_.network.initial_cwnd_bytes), p.segment)) * p.segment;
  double extra = rtt;
  if (rtt > 0 && rate > 0) {
    const double bdp = rate * rtt;
    const int to_fill = bdp > window0 ? int(std::ceil(std::log2(bdp / window0))) : 0;
    const int to_send = int(std::ceil(std::log2(bytes / window0 + 1)));
    const int rounds = std::max(0, std::min(to_fill, to_send) - 1);
    const double sent = std::min(bytes, window0 * (std::pow(2.0, rounds) - 1));
    extra += std::max(0.0, rounds * rtt - sent / rate);
  }
  after(ns3::Seconds(extra), [this, &c] {
    c.opening = false;
    c.opened = true;
    start(c);
  });
}

void FlowNetwork::start(Conn& c) {
  c.active = true;
  for (std::size_t i = 0; i < c.path->links.size(); ++i) {
    auto& f = links_[std::size_t(c.path->links[i])].flows;
    c.slot[i] = int(f.size());
    f.push_back(c.id);
  }
  c.last = now();
  c.rate = 0;
  next_message(c);
  changed(c.path->links);
}

void FlowNetwork::next_message(Conn& c) {
  auto it = c.queued.begin();
  c.head = std::move(it->second);
  c.queued.erase(it);
  c.left = double(on_wire(c.head->wire_bytes, c.path->segment, c.datagram));
}

void FlowNetwork::advance(Conn& c) {
  const ns3::Time t = now();
  c.left = std::max(0.0, c.left - c.rate * (t - c.last).GetSeconds());
  c.last = t;
}

// A rate that fell leaves the event where it was: it fires early, finds bytes
// left and moves itself (one scheduler operation instead of two per change).
void FlowNetwork::schedule_completion(Conn& c) {
  if (c.rate <= 0) {  // a link at zero bandwidth: wait for the next change
    loop_.remove(c.done);
    return;
  }
  const double ns = std::ceil(c.left / c.rate * 1e9);
  const ns3::Time due = now() + ns3::NanoSeconds(std::int64_t(std::min(ns, 9e18)));
  if (loop_.pending(c.done) && c.due <= due) return;
  loop_.remove(c.done);
  c.due = due;
  c.done = after(due - now(), [this, &c] {
    advance(c);
    if (c.left > c.rate * 1e-9 + 1e-6)
      schedule_completion(c);
    else
      complete(c);
  });
}

void FlowNetwork::complete(Conn& c) {
  c.left = 0;
  c.last = now();
  Message m = std::move(*c.head);
  c.head.reset();
  const Path& p = *c.path;
  const std::uint32_t seg = p.segment;
  const std::uint64_t packets = std::max<std::uint64_t>(1, (m.wire_bytes + seg - 1) / seg);
  if (c.datagram) {
    count(c, on_wire(m.wire_bytes, seg, true));
    bool lost = false;
    if (p.loss > 0) {
      std::uniform_real_distribution<double> u(0, 1);
      for (std::uint64_t i = 0; i < packets && !lost; ++i) lost = u(loss_rng_) < p.loss;
    }
    if (lost)
      ++best_effort_lost_;
    else
      after(ns3::Seconds(p.latency_s + p.forward_extra_s), [this, m = std::move(m)] { deliver_(m); });
  } else {
    const std::uint64_t acks = (packets + SimNetwork::delayed_ack_count(seg) - 1) / SimNetwork::delayed_ack_count(seg);
    // On a lossy path every lost segment is sent again: 1 / (1 - loss) times the data, on average.
    count(c, std::uint64_t(double(on_wire(m.wire_bytes, seg, false)) / (1 - p.loss)) + acks * kTcpWireHeader);
    after(ns3::Seconds(p.latency_s + p.forward_extra_s), [this, m = std::move(m)] { deliver_(m); });
  }
  if (!c.queued.empty()) {  // the connection stays one flow at the same rate
    next_message(c);
    schedule_completion(c);
    return;
  }
  c.active = false;
  c.rate = 0;
  // A link's flows are a set (re-rating sorts them): the last takes the
  // leaver's place, found from its slot, not by a search through a server's
  // thousand flows.
  for (std::size_t i = 0; i < p.links.size(); ++i) {
    const int l = p.links[i];
    auto& f = links_[std::size_t(l)].flows;
    const int moved = f.back();
    f[std::size_t(c.slot[i])] = moved;
    f.pop_back();
    if (moved == c.id) continue;
    Conn& m = *conns_[std::size_t(moved)];
    const auto& ml = m.path->links;
    m.slot[std::size_t(std::find(ml.begin(), ml.end(), l) - ml.begin())] = c.slot[i];
  }
  changed(p.links);
}

void FlowNetwork::count(const Conn& c, std::uint64_t wire_bytes) {
  for (int l : c.path->links) (links_[std::size_t(l)].wan ? counters_.wan_bytes : counters_.lan_bytes) += wire_bytes;
}

// Every change at one instant is re-rated once, after the others: a server
// answering 64 children starts 64 flows at the same time, one recomputation
// instead of 64 growing ones. No time passes meanwhile, so no byte moves at a
// rate that is about to change.
void FlowNetwork::changed(const std::vector<int>& links) {
  dirty_.insert(dirty_.end(), links.begin(), links.end());
  if (recompute_pending_) return;
  recompute_pending_ = true;
  loop_.schedule(0, [this] {
    recompute_pending_ = false;
    recompute(dirty_);  // schedules completions only: nothing it calls changes dirty_
    dirty_.clear();
  });
}

void FlowNetwork::recompute(const std::vector<int>& seeds) {
  // The connected component of links and active flows reached from the seeds.
  comp_links_.clear();
  comp_flows_.clear();
  local_.resize(links_.size(), -1);  // link -> index in comp_links_, -1 outside
  flow_seen_.resize(conns_.size(), 0);
  stack_.assign(seeds.begin(), seeds.end());
  while (!stack_.empty()) {
    const int l = stack_.back();
    stack_.pop_back();
    if (local_[std::size_t(l)] >= 0) continue;
    local_[std::size_t(l)] = int(comp_links_.size());
    comp_links_.push_back(l);
    for (int f : links_[std::size_t(l)].flows) {
      if (flow_seen_[std::size_t(f)]) continue;
      flow_seen_[std::size_t(f)] = 1;
      comp_flows_.push_back(f);
      for (int l2 : conns_[std::size_t(f)]->path->links)
        if (local_[std::size_t(l2)] < 0) stack_.push_back(l2);
    }
  }
  for (int f : comp_flows_) flow_seen_[std::size_t(f)] = 0;  // the scratch arrays clean for the next call
  ++recomputations_;
  recomputed_flows_ += comp_flows_.size();
  if (comp_flows_.empty()) {
    for (int l : comp_links_) local_[std::size_t(l)] = -1;
    return;
  }
  // A fixed order: results never depend on discovery. (Nor on the links'
  // order: the solver treats each link on its own.)
  std::sort(comp_flows_.begin(), comp_flows_.end());
  capacity_.resize(comp_links_.size());
  for (std::size_t i = 0; i < comp_links_.size(); ++i) capacity_[i] = links_[std::size_t(comp_links_[i])].bytes_per_s;
  if (flows_.size() < comp_flows_.size()) flows_.resize(comp_flows_.size());
  for (std::size_t i = 0; i < comp_flows_.size(); ++i) {
    const Conn& c = *conns_[std::size_t(comp_flows_[i])];
    flows_[i].links.clear();
    for (int l : c.path->links) flows_[i].links.push_back(local_[std::size_t(l)]);
    flows_[i].cap = c.datagram ? 0 : c.path->cap;
  }
  for (int l : comp_links_) local_[std::size_t(l)] = -1;
  const std::vector<double>& rates = solver_.solve(flows_.data(), comp_flows_.size(), capacity_);
  for (std::size_t i = 0; i < comp_flows_.size(); ++i) {
    Conn& c = *conns_[std::size_t(comp_flows_[i])];
    advance(c);
    if (rates[i] == c.rate) continue;
    c.rate = rates[i];
    schedule_completion(c);
  }
}

void FlowNetwork::set_bandwidth(int link, double mbps) {
  links_[std::size_t(link)].bytes_per_s = mbps_to_bytes(mbps);
  changed({link});
}

nlohmann::json FlowNetwork::settings() const {
  const NetworkSpec& n = sc_.network;
  return {{"model", "flow"},
          {"segment_bytes", n.segment_bytes},
          {"initial_cwnd_bytes", n.initial_cwnd_bytes},
          {"tcp_buffer_bytes", n.tcp_buffer_bytes},
          {"min_rto_ms", n.min_rto_ms},
          {"segment_rule", "as ns3: the largest segment whose serialisation fits each link's rule (link_sizing.h)"}};
}

nlohmann::json FlowNetwork::drops() const {
  return {{"dropped_at_sending_hosts", 0},
          {"dropped_at_switches", 0},
          {"best_effort_lost", best_effort_lost_},
          {"rate_recomputations", recomputations_},
          {"flows_recomputed", recomputed_flows_}};
}

}  // namespace geotrain::sim
