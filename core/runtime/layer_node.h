// A layer between a role and its runtime: a Runtime to the role, an Actor to
// the runtime, passing everything through unless a subclass takes it over
// (DGT's parts, P3's slices, a scheduled group's relays). The role never
// knows a layer is there, so one role runs under any of them.
#pragma once
#include <memory>

#include "core/runtime/runtime.h"

namespace geotrain {

class LayerNode : public Runtime, public Actor {
 public:
  explicit LayerNode(Runtime& rt) : rt_(rt) {}
  void wrap(std::unique_ptr<Actor> role) { role_ = std::move(role); }

  // Runtime, for the role.
  NodeId self() const override { return rt_.self(); }
  TimeNs now() const override { return rt_.now(); }
  TimerId schedule(TimeNs delay, std::function<void()> fn) override { return rt_.schedule(delay, std::move(fn)); }
  void cancel(TimerId id) override { rt_.cancel(id); }
  void send(Message msg) override { rt_.send(std::move(msg)); }
  void compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) override {
    rt_.compute(cost, std::move(work), std::move(done));
  }
  std::mt19937_64& rng() override { return rt_.rng(); }
  void stop() override { rt_.stop(); }

  // Actor, for the runtime.
  void start() override { role_->start(); }
  void rejoin() override { role_->rejoin(); }
  void on_message(const Message& msg) override { role_->on_message(msg); }
  void on_peer_down(NodeId peer) override { role_->on_peer_down(peer); }
  void on_peer_up(NodeId peer) override { role_->on_peer_up(peer); }
  void finish(TimeNs now) override { role_->finish(now); }
  nlohmann::json report(TimeNs now) const override { return role_->report(now); }

 protected:
  Runtime& rt_;
  std::unique_ptr<Actor> role_;
};

}  // namespace geotrain
