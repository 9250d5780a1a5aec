#include "sim/sim_node.h"

namespace geotrain::sim {

SimNode::SimNode(NodeId id, Transport& transport, const ComputeModel& compute, std::uint64_t seed,
                 std::function<void()> on_stop)
    : id_(id), transport_(transport), compute_(compute), on_stop_(std::move(on_stop)) {
  std::seed_seq seq{seed, std::uint64_t(id), std::uint64_t(0x6765747261696eULL)};
  rng_.seed(seq);
}

SimNode::~SimNode() {
  for (auto& [id, ev] : timers_) {
    (void)id;
    ns3::Simulator::Cancel(ev);
  }
}

TimeNs SimNode::now() const { return ns3::Simulator::Now().GetNanoSeconds(); }

TimerId SimNode::schedule(TimeNs delay, std::function<void()> fn) {
  const TimerId id = next_timer_++;
  timers_[id] = ns3::Simulator::Schedule(ns3::NanoSeconds(delay), [this, id, fn = std::move(fn)] {
    timers_.erase(id);
    fn();
  });
  return id;
}

void SimNode::cancel(TimerId id) {
  auto it = timers_.find(id);
  if (it == timers_.end()) return;
  ns3::Simulator::Cancel(it->second);
  timers_.erase(it);
}

void SimNode::send(Message msg) {
  msg.from = id_;
  msg.sent_s = to_seconds(now());
  transport_.send(std::move(msg));
}

void SimNode::compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) {
  work();
  schedule(compute_.duration(id_, cost, now(), rng_), std::move(done));
}

}  // namespace geotrain::sim
