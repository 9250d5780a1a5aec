// A transfer scheduler's decisions for one group: a server (the root) and its
// children (the members), inside a DC or across the WAN (REFERENCE.md section
// 7). The mechanism (core/layers/sched/sched_node) moves the bytes, tracks who holds
// what and measures every transfer; a scheduler only says who sends to whom:
//  - broadcast: round r's model starts at the root; every holder may pass it
//    on (send_model), and every member must get it exactly once;
//  - aggregation: every member's push of round r must reach the root summed
//    exactly once; a member may be told to send its push, with what it has
//    summed so far, to another member or to the root (order_push).
// A new scheduler is one file plus one line in scheduler_registry.
#pragma once
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "core/layers/sched/throughput.h"
#include "core/payload/message.h"

namespace geotrain {

// What a scheduler may ask the mechanism to do, in the round it is working on.
class SchedOps {
 public:
  virtual ~SchedOps() = default;
  // `holder` (the root, or a member that has the model) sends it to `receiver`.
  virtual void send_model(NodeId holder, NodeId receiver) = 0;
  // `sender`, once its own push and `merges` pushes sent to it are summed,
  // sends the sum to `receiver` (a member, which sums it into its own, or the root).
  virtual void order_push(NodeId sender, NodeId receiver, int merges) = 0;
};

struct SchedGroup {
  NodeId root = -1;
  std::vector<NodeId> members;    // ascending
  std::uint64_t model_bytes = 0;  // what a model (and a dense push) costs on the wire
  const Throughput* throughput = nullptr;
  std::mt19937_64* rng = nullptr;
};

class GroupScheduler {
 public:
  virtual ~GroupScheduler() = default;
  // Round r's model is at the root.
  virtual void begin_broadcast(std::int64_t round, SchedOps& ops) = 0;
  // `receiver` got the model from `holder` (it now holds it too).
  virtual void model_arrived(NodeId holder, NodeId receiver, SchedOps& ops) = 0;
  // Round r's pushes are coming (called before any member reports one ready).
  virtual void begin_aggregation(std::int64_t round, SchedOps& ops) = 0;
  // `member` holds its own push of the round.
  virtual void ready(NodeId member, SchedOps& ops) = 0;
  // `from`'s push (with what it had summed) is summed into `into` (a member or the root).
  virtual void merged(NodeId from, NodeId into, SchedOps& ops) = 0;
  // How many times the scheduler changed its plan (0 for one that does not plan).
  virtual std::uint64_t replans() const { return 0; }
};

}  // namespace geotrain
