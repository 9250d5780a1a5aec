// A deterministic in-memory world for unit tests of roles and policies (the
// idea of leveldb's in-memory Env): one event loop, a Runtime per node, links
// with latency, bandwidth and best-effort loss, compute times. No ns-3, no
// sockets, no threads; a role runs here exactly as in the two real runtimes.
//
// Contract (the Runtime contract, core/runtime/runtime.h): events run one at a time in
// time order, ties in the order they were scheduled; a reliable message between
// an ordered pair arrives in send order (each pair is a FIFO link: serialised at
// its bandwidth, then its latency); a best-effort message is lost with the
// link's loss probability; send() never delivers synchronously.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <queue>
#include <random>
#include <set>
#include <vector>

#include "core/runtime/runtime.h"

namespace geotrain::testing {

class FakeWorld {
 public:
  struct Link {
    double latency_s = 0;
    double mbps = 0;   // 0 = infinitely fast
    double loss = 0;   // best-effort messages only
    bool cut = false;  // every message is lost (a partition, a dead peer)
  };
  // How long a step costs on a node; default: no time at all.
  using ComputeTime = std::function<TimeNs(NodeId, const ComputeCost&, TimeNs now, std::mt19937_64& rng)>;

  explicit FakeWorld(std::uint64_t seed = 1);
  ~FakeWorld();
  FakeWorld(const FakeWorld&) = delete;
  FakeWorld& operator=(const FakeWorld&) = delete;

  TimeNs now() const { return now_; }
  void at(TimeNs t, std::function<void()> fn);
  // Runs events until none is left, stop() is called, or the clock would pass `until`.
  void run(TimeNs until = std::numeric_limits<TimeNs>::max());
  void stop() { stopped_ = true; }
  bool stopped() const { return stopped_; }

  void set_default_link(Link l) { default_link_ = l; }
  void set_link(NodeId from, NodeId to, Link l) { links_[{from, to}] = l; }
  Link& link(NodeId from, NodeId to);
  void set_compute(ComputeTime fn) { compute_ = std::move(fn); }

  // The node's Runtime (created on first use) and the actor its messages go to
  // (replace it to model a restarted process; null = deliveries are dropped).
  Runtime& runtime(NodeId id);
  void attach(NodeId id, Actor* actor) { actors_[id] = actor; }
  // The node's process dies: its pending timers and compute completions never
  // fire, and it gets a fresh Runtime (for the actor of the restarted process).
  Runtime& replace_runtime(NodeId id);

  // Called with every message as it is delivered (before its actor sees it).
  void observe(std::function<void(const Message&)> fn) { observer_ = std::move(fn); }

  struct Counters {
    std::uint64_t messages = 0, bytes = 0, lost = 0;
  };
  const Counters& sent(NodeId from, NodeId to) { return counters_[{from, to}]; }
  Counters total() const;

 private:
  class Node;
  struct Event {
    TimeNs t;
    std::uint64_t seq;
    std::function<void()> fn;
    bool operator>(const Event& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };
  void transmit(Message msg);
  TimeNs compute_time(NodeId id, const ComputeCost& c, std::mt19937_64& rng) const {
    return compute_ ? compute_(id, c, now_, rng) : 0;
  }

  std::uint64_t seed_;
  std::mt19937_64 rng_;
  TimeNs now_ = 0;
  std::uint64_t seq_ = 0;
  bool stopped_ = false;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  Link default_link_;
  std::map<std::pair<NodeId, NodeId>, Link> links_;
  std::map<std::pair<NodeId, NodeId>, TimeNs> link_free_;  // when each pair's FIFO is free again
  std::map<std::pair<NodeId, NodeId>, Counters> counters_;
  std::map<NodeId, std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Node>> dead_;  // kept so their pending events can see they are dead
  std::map<NodeId, Actor*> actors_;
  ComputeTime compute_;
  std::function<void(const Message&)> observer_;
};

}  // namespace geotrain::testing
