// TSEngine (REFERENCE.md section 7): no plan, decisions as transfers end.
// Broadcast: every idle holder (the root, then every member that got the
// model) is given its next receiver: with probability min(known / (known +
// unknown), greedy_max) the unserved member it has the highest measured rate
// to (known: unserved members it has a measurement to), else a random
// unserved one. Aggregation: ready nodes queue (the root first); the two at
// the head are paired, the one with the higher measured rate towards the other
// sends (the root always receives), and the receiver, having summed, queues
// again.
#pragma once
#include <deque>
#include <map>
#include <set>

#include "core/layers/sched/group_scheduler.h"

namespace geotrain {

class TsEngine : public GroupScheduler {
 public:
  TsEngine(const SchedGroup& g, double greedy_max) : g_(g), greedy_max_(greedy_max) {}
  void begin_broadcast(std::int64_t round, SchedOps& ops) override;
  void model_arrived(NodeId holder, NodeId receiver, SchedOps& ops) override;
  void begin_aggregation(std::int64_t round, SchedOps& ops) override;
  void ready(NodeId member, SchedOps& ops) override;
  void merged(NodeId from, NodeId into, SchedOps& ops) override;

 private:
  void give_receiver(NodeId holder, SchedOps& ops);
  void pair(SchedOps& ops);
  SchedGroup g_;
  double greedy_max_;
  std::set<NodeId> unserved_;
  std::deque<NodeId> queue_;       // ready to merge, in arrival order
  std::map<NodeId, int> merges_;   // pushes summed into each node this round
  std::map<NodeId, int> covered_;  // members each node's sum covers
};

}  // namespace geotrain
