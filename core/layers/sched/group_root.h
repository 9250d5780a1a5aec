// The coordinator of a scheduled group (core/layers/sched), beside the group's
// server: it carries out a GroupScheduler's decisions. The server's role
// answers every pull as usual; the first answer of a round starts the round's
// broadcast (the model goes where the scheduler says, the other answers are
// dropped) and its aggregation. Members' reports update the throughput
// estimates and tell the scheduler what ended. A merged push reaches the role
// as its sum from the member that sent it and an empty push (no blocks, no
// contributors) from each other member it covers, so the role's aggregator
// counts every member once and adds every update once.
//
// A member lost mid-round (declared down) takes with it what it was relaying
// and what was summed into it, so the round's plan is abandoned: every live
// member whose push has not reached the root sends its own push alone, straight
// to the root (a push marked kAlonePush; any other push of that round arriving
// later is dropped, as what it carried comes again alone), and every live
// member without the model gets it from the root. From the next round the
// scheduler plans over the members that are up; one that comes back (or was
// away when the round was planned) is served directly until then.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "core/layers/sched/group_scheduler.h"
#include "core/runtime/runtime.h"

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
  // A member was declared down, or is heard from again.
  void member_down(NodeId m);
  void member_up(NodeId m);
  // A member's process was replaced: what it relayed or held is gone, and it
  // gets the round's model from the root.
  void member_rejoined(NodeId m);
  // This root's process was restarted (from its checkpoint): the round it
  // resumes runs without a plan, its members' pushes alone and the model direct.
  void rejoin() { restarting_ = true; }
  Throughput& throughput() { return *throughput_; }
  nlohmann::json report() const;

 private:
  void send_model(NodeId holder, NodeId receiver) override;
  void order_push(NodeId sender, NodeId receiver, int merges) override;
  bool is_member(NodeId n) const { return members_.count(n) > 0; }
  void covered_by(NodeId n, std::vector<NodeId>& out) const;
  // The scheduler decides for this round's `member`'s events (it is in the plan, and the plan stands).
  bool planned(NodeId member, std::int64_t round) const { return round != abandoned_ && plan_.count(member) > 0; }
  // `member` sends its push of `round` alone, straight to the root.
  void order_alone(NodeId member, std::int64_t round);
  void send_direct(NodeId member);
  // Whether `member`'s copy of the model is on its way from live holders.
  bool model_coming(NodeId member) const;
  void replan_if_needed();

  Runtime& rt_;
  std::unique_ptr<Throughput> throughput_;
  SchedGroup group_;
  std::set<NodeId> members_;
  std::unique_ptr<GroupScheduler> sched_;
  std::function<void(const Message&)> deliver_;
  std::function<std::unique_ptr<GroupScheduler>(const SchedGroup&)> make_;
  std::set<NodeId> plan_;            // the members the scheduler plans for (those up when it was made)
  std::set<NodeId> down_;            // members declared down
  std::set<NodeId> reached_;         // this aggregation: members whose push reached the root
  std::set<NodeId> modeled_;         // this broadcast: members that have the model (or were sent it by the root)
  std::map<NodeId, NodeId> source_;  // this broadcast: who was told to send each member the model
  std::set<NodeId> alone_;           // this aggregation: members ordered to push alone
  std::int64_t abandoned_ = -1;      // the last round whose plan was abandoned
  bool restarting_ = false;
  std::int64_t bcast_round_ = -1, agg_round_ = 0;
  std::optional<Message> model_;        // the round's model, as the role answered the first pull
  std::map<NodeId, NodeId> into_;       // this aggregation: who was ordered to send to whom
  std::vector<double> round_starts_s_;  // when each broadcast began
  std::uint64_t orders_ = 0, rejected_ = 0, abandoned_rounds_ = 0, regroups_ = 0, superseded_ = 0;
};

}  // namespace geotrain
