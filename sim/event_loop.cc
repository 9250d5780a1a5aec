#include "sim/event_loop.h"

#include <queue>
#include <unordered_map>
#include <utility>
#include <vector>

namespace geotrain::sim {
namespace {

class Ns3Loop : public EventLoop {
 public:
  TimeNs now() const override { return ns3::Simulator::Now().GetNanoSeconds(); }
  EventHandle schedule(TimeNs delay, std::function<void()> fn) override {
    return {ns3::Simulator::Schedule(ns3::NanoSeconds(delay), std::move(fn)), 0};
  }
  void cancel(const EventHandle& e) override { ns3::Simulator::Cancel(e.ns3); }
  void remove(const EventHandle& e) override { ns3::Simulator::Remove(e.ns3); }
  bool pending(const EventHandle& e) const override { return e.ns3.IsRunning(); }
  void run() override { ns3::Simulator::Run(); }
  void stop() override { ns3::Simulator::Stop(); }
  void stop_at(TimeNs at) override { ns3::Simulator::Stop(ns3::NanoSeconds(at - now())); }
  std::uint64_t events() const override { return ns3::Simulator::GetEventCount(); }
};

// A binary heap of (time, uid); uids grow, so equal times run in scheduling order.
class OwnLoop : public EventLoop {
 public:
  TimeNs now() const override { return now_; }
  EventHandle schedule(TimeNs delay, std::function<void()> fn) override {
    const std::uint64_t uid = next_uid_++;
    queue_.push({now_ + delay, uid});
    pending_.emplace(uid, Pending{std::move(fn), false});
    return {ns3::EventId(), uid};
  }
  void cancel(const EventHandle& e) override {
    if (auto it = pending_.find(e.uid); it != pending_.end()) it->second.cancelled = true;
  }
  void remove(const EventHandle& e) override { pending_.erase(e.uid); }
  bool pending(const EventHandle& e) const override {
    const auto it = pending_.find(e.uid);
    return it != pending_.end() && !it->second.cancelled;
  }
  void run() override {
    stopped_ = false;
    while (!stopped_) {
      while (!queue_.empty() && !pending_.count(queue_.top().uid)) queue_.pop();  // removed ones
      if (queue_.empty()) return;
      const Key k = queue_.top();
      queue_.pop();
      auto it = pending_.find(k.uid);
      Pending p = std::move(it->second);
      pending_.erase(it);
      ++events_;
      now_ = k.at;
      if (!p.cancelled) p.fn();
    }
  }
  void stop() override { stopped_ = true; }
  void stop_at(TimeNs at) override {
    schedule(at - now_, [this] { stop(); });
  }
  std::uint64_t events() const override { return events_; }

 private:
  struct Key {
    TimeNs at;
    std::uint64_t uid;
    bool operator>(const Key& o) const { return at != o.at ? at > o.at : uid > o.uid; }
  };
  struct Pending {
    std::function<void()> fn;
    bool cancelled;
  };
  TimeNs now_ = 0;
  std::uint64_t next_uid_ = 1, events_ = 0;
  bool stopped_ = false;
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> queue_;
  std::unordered_map<std::uint64_t, Pending> pending_;
};

}  // namespace

std::unique_ptr<EventLoop> make_ns3_event_loop() { return std::make_unique<Ns3Loop>(); }
std::unique_ptr<EventLoop> make_own_event_loop() { return std::make_unique<OwnLoop>(); }

}  // namespace geotrain::sim
