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

#include "core/layers/sched/group_member.h"
#include "core/layers/sched/group_root.h"
#include "core/layers/sched/schedule_spec.h"
#include "core/runtime/layer_node.h"
#include "core/topology/deployment.h"

namespace geotrain {

class SchedNode : public LayerNode {
 public:
  // `model_bytes`: what a dense model costs on the wire (the graph's edge weights).
  // `rules`: how the learner's blocks merge where a member sums pushes (empty: every block sums).
  // `topology` and `initial_window_bytes` (TCP's first window): the throughput priors until measured.
  SchedNode(Runtime& rt, const ScheduleSpec& schedule, const Topology& topology, int initial_window_bytes,
            const Deployment& dep, std::uint64_t model_bytes, std::vector<BlockRule> rules = {});
  // Whether `schedule` schedules any group `id` belongs to.
  static bool needed(const ScheduleSpec& schedule, const Deployment& dep, NodeId id);

  void send(Message msg) override;

  void start() override;
  void rejoin() override;
  void on_message(const Message& msg) override;
  // A child lost or back: its group's root plans around it (core/layers/sched/group_root.h).
  void on_peer_down(NodeId peer) override;
  void on_peer_up(NodeId peer) override;
  // The role's report plus "sched": {"member": ..., "root": ...} for the sides that are on.
  nlohmann::json report(TimeNs now) const override;

 private:
  const NodeSpec& spec_;
  std::optional<GroupMember> member_;
  std::optional<GroupRoot> root_;
  std::uint64_t rejected_ = 0;
};

}  // namespace geotrain
