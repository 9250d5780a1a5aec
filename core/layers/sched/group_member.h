// A member's side of a scheduled group (core/layers/sched): what a node does for its
// parent's group. Its role's pushes wait for the coordinator's order (to the
// root, or to a member that sums them into its own) and the pushes of other
// members ordered to it; models arrive from the root or from any member
// relaying them, are held until the role has pushed or asked, and are passed on as the
// coordinator orders. Every arrival is reported to the coordinator with its
// duration, which is how throughput is measured.
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "core/payload/block_rule.h"
#include "core/runtime/runtime.h"

namespace geotrain {

// When a member is lost mid-round the root abandons the round's plan
// (core/layers/sched/group_root.h): it orders every member whose push it lacks to send
// its own push alone (a kPushOrder whose merge count is kPushAlone), and such a
// push is marked by its seq.
constexpr double kPushAlone = -1;
constexpr std::uint32_t kAlonePush = 1;
// A member's process restarted (it holds nothing) says so with a kReadyReport of this round.
constexpr std::int64_t kRejoinedRound = -1;

class GroupMember {
 public:
  // `root`: the group's server (the coordinator); `siblings`: the other members;
  // `rules`: how the learner's blocks merge (empty: every block sums).
  GroupMember(Runtime& rt, NodeId root, std::vector<NodeId> siblings, std::function<void(const Message&)> deliver,
              std::vector<BlockRule> rules = {});
  // The role sends `msg`; true when this takes it over.
  bool on_send(const Message& msg);
  // `msg` arrived; true when it was for this side (delivered, kept or dropped).
  bool on_message(const Message& msg);
  nlohmann::json report() const;
  // This process replaces one that was in the group: tells the root.
  void rejoin();

 private:
  struct Push {
    std::optional<Message> own;
    std::vector<std::shared_ptr<const Payload>> merged;
    std::optional<std::pair<NodeId, int>> order;  // to whom, after how many merges
  };
  bool from_group(NodeId n) const { return n == root_ || siblings_.count(n) > 0; }
  void report_to_root(MsgKind kind, std::int64_t round, NodeId other, double seconds, std::uint64_t bytes);
  void deliver_model();
  void relay(NodeId to);
  void try_push(std::int64_t round);
  void send_alone(const Message& own);
  double clock_s() const;

  Runtime& rt_;
  NodeId root_;
  std::set<NodeId> siblings_;
  std::function<void(const Message&)> deliver_;
  std::vector<BlockRule> rules_;
  std::optional<Message> model_;  // the latest model, as sent by the root
  // The role asked (a pull request: the latest model, whatever it had), or
  // pushed (a model newer than the last one it was given); delivered_: the
  // model held has been given to it.
  bool wants_ = false, wants_newer_ = false, delivered_ = false;
  std::optional<std::int64_t> delivered_round_;
  std::map<std::int64_t, std::vector<NodeId>> relay_to_;  // by round: ordered relays not yet sent
  std::map<std::int64_t, Push> pushes_;                   // by round
  std::optional<Message> last_own_;                       // my last push as the role sent it (kept to resend alone)
  std::uint64_t relayed_ = 0, merged_ = 0, rejected_ = 0, alone_ = 0, duplicates_ = 0;
};

}  // namespace geotrain
