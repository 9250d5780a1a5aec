// The coordinator of a scheduled group (core/sched), beside the group's
// server: it carries out a GroupScheduler's decisions. The server's role
// answers every pull as usual; the first answer of a round starts the round's
// broadcast (the model goes where the scheduler says, the other answers are
// dropped) and its aggregation. Members' reports update the throughput
// estimates and tell the scheduler what ended. A merged push reaches the role
// as its sum from the member that sent it and an empty push (no blocks, no
// contributors) from each other member it covers, so the role's aggregator
// counts every member once and adds every update once.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "core/runtime.h"
#include "core/sched/group_scheduler.h"

namespace geotrain {

class GroupRoot : private SchedOps {
 public:
  // `make`: the scheduler for this group (it reads `throughput` and `rng` through the group).
  GroupRoot(Runtime& rt, SchedGroup group,
            const std::function<std::unique_ptr<GroupScheduler>(const SchedGroup&)>& make,
            std::function<void(const Message&)> deliver);
  // The role starts: round 0's pushes are coming.
  void start();
  bool on_send(const Message& msg);
  bool on_message(const Message& msg);
  Throughput& throughput() { return *throughput_; }
  nlohmann::json report() const;

 private:
  void send_model(NodeId holder, NodeId receiver) override;
  void order_push(NodeId sender, NodeId receiver, int merges) override;
  bool is_member(NodeId n) const { return members_.count(n) > 0; }
  void covered_by(NodeId n, std::vector<NodeId>& out) const;

  Runtime& rt_;
  std::unique_ptr<Throughput> throughput_;
  SchedGroup group_;
  std::set<NodeId> members_;
  std::unique_ptr<GroupScheduler> sched_;
  std::function<void(const Message&)> deliver_;
  std::int64_t bcast_round_ = -1, agg_round_ = 0;
  std::optional<Message> model_;        // the round's model, as the role answered the first pull
  std::map<NodeId, NodeId> into_;       // this aggregation: who was ordered to send to whom
  std::vector<double> round_starts_s_;  // when each broadcast began
  std::uint64_t orders_ = 0, rejected_ = 0;
};

}  // namespace geotrain
