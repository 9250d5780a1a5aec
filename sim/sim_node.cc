#include "sim/sim_node.h"

namespace geotrain::sim {

SimNode::SimNode(NodeId id, EventLoop& loop, Transport& transport, const ComputeModel& compute, ComputePool& pool,
                 std::uint64_t seed, std::function<void()> on_stop)
    : id_(id), loop_(loop), transport_(transport), compute_(compute), pool_(pool), on_stop_(std::move(on_stop)) {
  std::seed_seq seq{seed, std::uint64_t(id), std::uint64_t(0x6765747261696eULL)};
  rng_.seed(seq);
}

SimNode::~SimNode() {
  if (work_) {  // it writes into this node's role, which is going too
    try {
      pool_.wait(*work_);
    } catch (...) {  // the run already failed (or is being abandoned): its error is not this one's to report
    }
  }
  for (auto& [id, ev] : timers_) {
    (void)id;
    loop_.cancel(ev);
  }
}

TimeNs SimNode::now() const { return loop_.now(); }

TimerId SimNode::schedule(TimeNs delay, std::function<void()> fn) {
  const TimerId id = next_timer_++;
  timers_[id] = loop_.schedule(delay, [this, id, fn = std::move(fn)] {
    timers_.erase(id);
    settle();
    fn();
  });
  return id;
}

void SimNode::cancel(TimerId id) {
  auto it = timers_.find(id);
  if (it == timers_.end()) return;
  loop_.cancel(it->second);
  timers_.erase(it);
}

void SimNode::send(Message msg) {
  msg.from = id_;
  msg.sent_s = to_seconds(now());
  transport_.send(std::move(msg));
}

void SimNode::compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) {
  settle();
  work_ = pool_.submit(std::move(work));
  if (!compute_.draws()) {
    schedule(compute_.duration(id_, cost, now(), rng_), std::move(done));
    return;
  }
  // The duration's draw must wait for the maths' draws. The step cannot end
  // before its shortest duration, so the node settles then at the latest (or
  // at its next callback, if that is sooner) and schedules `done`.
  undrawn_ = Undrawn{cost, now(), std::move(done)};
  schedule(compute_.earliest(id_, cost, now()), [] {});
}

void SimNode::settle() {
  if (work_) {
    const auto w = std::move(work_);
    pool_.wait(*w);
  }
  if (!undrawn_) return;
  Undrawn u = std::move(*undrawn_);
  undrawn_.reset();
  const TimeNs end = u.start + compute_.duration(id_, u.cost, u.start, rng_);
  schedule(end - now(), std::move(u.done));
}

}  // namespace geotrain::sim
