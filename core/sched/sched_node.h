// Transfer scheduling as a layer between a role and its runtime (a Runtime to
// the role, an Actor to the runtime), as DGT is: no role knows. A node is a
// member of its parent's group and the root of its own (a server and its
// children); each side is on when the scenario schedules that group's tier
// (`schedule.lan`, `schedule.wan`; a group is a WAN one when any child is in
// another DC). Messages that are not a group's pulls, pushes, orders or
// reports pass through unchanged. A push or model from a node of no group of
// this one is refused and counted: a relay is accepted only from the members
// of the group it serves.
#pragma once
#include <memory>
#include <optional>

#include "core/config/scenario.h"
#include "core/deployment.h"
#include "core/runtime.h"
#include "core/sched/group_member.h"
#include "core/sched/group_root.h"

namespace geotrain {

class SchedNode : public Runtime, public Actor {
 public:
  // `model_bytes`: what a dense model costs on the wire (the graph's edge weights).
  SchedNode(Runtime& rt, const Scenario& sc, const Deployment& dep, std::uint64_t model_bytes);
  void wrap(std::unique_ptr<Actor> role) { role_ = std::move(role); }
  // Whether the scenario schedules any group `id` belongs to.
  static bool needed(const Scenario& sc, const Deployment& dep, NodeId id);

  NodeId self() const override { return rt_.self(); }
  TimeNs now() const override { return rt_.now(); }
  TimerId schedule(TimeNs delay, std::function<void()> fn) override { return rt_.schedule(delay, std::move(fn)); }
  void cancel(TimerId id) override { rt_.cancel(id); }
  void send(Message msg) override;
  void compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) override {
    rt_.compute(cost, std::move(work), std::move(done));
  }
  std::mt19937_64& rng() override { return rt_.rng(); }
  void stop() override { rt_.stop(); }

  void start() override;
  void rejoin() override { role_->rejoin(); }
  void on_message(const Message& msg) override;
  void on_peer_down(NodeId peer) override { role_->on_peer_down(peer); }
  void on_peer_up(NodeId peer) override { role_->on_peer_up(peer); }
  void finish(TimeNs now) override { role_->finish(now); }
  // The role's report plus "sched": {"member": ..., "root": ...} for the sides that are on.
  nlohmann::json report(TimeNs now) const override;

 private:
  Runtime& rt_;
  const NodeSpec& spec_;
  std::unique_ptr<Actor> role_;
  std::optional<GroupMember> member_;
  std::optional<GroupRoot> root_;
  std::uint64_t rejected_ = 0;
};

}  // namespace geotrain
