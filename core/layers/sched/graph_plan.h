// `graph`: plans the group's trees on the throughput graph instead of
// deciding transfer by transfer. A transfer is store-and-forward and a node's
// transfers share its link, so the plan is made as a schedule in which every
// node sends one transfer at a time: earliest completion first, each step
// serving the member that can be reached soonest from whichever holder. That
// avoids a thin link whenever a relay over fast ones arrives sooner, and
// spreads the root's sends when its own link is the bottleneck. The
// aggregation tree is the same plan on the reversed edges (a member sums its
// subtree's pushes before sending on). The whole plan is ordered when a round
// begins and carried out as data arrives (a node's sends go together, so no
// step waits for a round trip to the root).
// Edge weights are the seconds a model takes, from the measured throughput
// (the topology's figures until a pair is measured). The plan is made again
// when any of its edges' seconds has moved by more than `replan_threshold`
// (relative) from what the plan assumed.
#pragma once
#include <map>
#include <utility>
#include <vector>

#include "core/layers/sched/group_scheduler.h"

namespace geotrain {

class GraphPlan : public GroupScheduler {
 public:
  GraphPlan(const SchedGroup& g, double replan_threshold) : g_(g), threshold_(replan_threshold) {}
  void begin_broadcast(std::int64_t round, SchedOps& ops) override;
  void model_arrived(NodeId, NodeId, SchedOps&) override {}
  void begin_aggregation(std::int64_t round, SchedOps& ops) override;
  void ready(NodeId, SchedOps&) override {}
  void merged(NodeId, NodeId, SchedOps&) override {}
  std::uint64_t replans() const override { return replans_; }

  // The current plan: whom each holder sends the model to, and whom each
  // node receives pushes from.
  const std::map<NodeId, std::vector<NodeId>>& broadcast_plan() const { return sends_; }
  const std::map<NodeId, std::vector<NodeId>>& aggregation_plan() const { return receives_; }

 private:
  void plan_if_needed();
  void plan();
  SchedGroup g_;
  double threshold_;
  bool planned_ = false;
  std::uint64_t replans_ = 0;
  std::map<NodeId, std::vector<NodeId>> sends_, receives_;
  std::map<NodeId, int> subtree_pushes_;                 // pushes each member receives before sending on
  std::map<std::pair<NodeId, NodeId>, double> assumed_;  // edge -> seconds the plan assumed
};

}  // namespace geotrain
