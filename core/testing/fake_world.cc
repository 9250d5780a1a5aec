#include "core/testing/fake_world.h"

#include <cmath>

namespace geotrain::testing {

class FakeWorld::Node : public Runtime {
 public:
  Node(FakeWorld& w, NodeId id) : w_(w), id_(id) {
    std::seed_seq seq{w.seed_, std::uint64_t(id), std::uint64_t(0x66616b65ULL)};
    rng_.seed(seq);
  }
  NodeId self() const override { return id_; }
  TimeNs now() const override { return w_.now(); }
  TimerId schedule(TimeNs delay, std::function<void()> fn) override {
    const TimerId id = next_timer_++;
    w_.at(w_.now() + delay, [this, id, fn = std::move(fn)] {
      if (cancelled_.erase(id) == 0 && alive_) fn();
    });
    return id;
  }
  void cancel(TimerId id) override { cancelled_.insert(id); }
  void send(Message msg) override {
    msg.from = id_;
    msg.sent_s = to_seconds(w_.now());
    w_.transmit(std::move(msg));
  }
  void compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) override {
    work();
    schedule(w_.compute_time(id_, cost, rng_), std::move(done));
  }
  std::mt19937_64& rng() override { return rng_; }
  void stop() override { w_.stop(); }
  void kill() { alive_ = false; }

 private:
  FakeWorld& w_;
  NodeId id_;
  std::mt19937_64 rng_;
  TimerId next_timer_ = 1;
  std::set<TimerId> cancelled_;
  bool alive_ = true;
};

FakeWorld::FakeWorld(std::uint64_t seed) : seed_(seed), rng_(seed) {}
FakeWorld::~FakeWorld() = default;

void FakeWorld::at(TimeNs t, std::function<void()> fn) { events_.push({std::max(t, now_), seq_++, std::move(fn)}); }

void FakeWorld::run(TimeNs until) {
  while (!stopped_ && !events_.empty() && events_.top().t <= until) {
    Event e = events_.top();
    events_.pop();
    now_ = e.t;
    e.fn();
  }
}

FakeWorld::Link& FakeWorld::link(NodeId from, NodeId to) {
  auto it = links_.find({from, to});
  if (it == links_.end()) it = links_.emplace(std::make_pair(from, to), default_link_).first;
  return it->second;
}

Runtime& FakeWorld::runtime(NodeId id) {
  auto& n = nodes_[id];
  if (!n) n = std::make_unique<Node>(*this, id);
  return *n;
}

Runtime& FakeWorld::replace_runtime(NodeId id) {
  auto& n = nodes_[id];
  if (n) {
    n->kill();
    dead_.push_back(std::move(n));
  }
  n = std::make_unique<Node>(*this, id);
  return *n;
}

FakeWorld::Counters FakeWorld::total() const {
  Counters t;
  for (const auto& [k, c] : counters_) {
    (void)k;
    t.messages += c.messages;
    t.bytes += c.bytes;
    t.lost += c.lost;
  }
  return t;
}

void FakeWorld::transmit(Message msg) {
  const std::pair<NodeId, NodeId> key{msg.from, msg.to};
  const Link& l = link(msg.from, msg.to);
  Counters& c = counters_[key];
  ++c.messages;
  c.bytes += msg.wire_bytes;
  const bool lost = l.cut || (msg.channel == Channel::kBestEffort && l.loss > 0 &&
                              std::uniform_real_distribution<double>(0, 1)(rng_) < l.loss);
  if (lost) {
    ++c.lost;
    return;
  }
  TimeNs& free = link_free_[key];
  const TimeNs serialise = l.mbps > 0 ? TimeNs(std::llround(double(msg.wire_bytes) * 8 / (l.mbps * 1e6) * 1e9)) : 0;
  free = std::max(free, now_) + serialise;
  const TimeNs arrival = free + TimeNs(std::llround(l.latency_s * 1e9));
  at(arrival, [this, m = std::move(msg)] {
    auto it = actors_.find(m.to);
    if (it == actors_.end() || !it->second) return;
    if (observer_) observer_(m);
    it->second->on_message(m);
  });
}

}  // namespace geotrain::testing
