// MultiGPS (REFERENCE.md section 1): the model sharded over S global servers,
// as a layer between a role and its runtime, so no role knows. The servers
// each run the ordinary GlobalServer over their part of the model (ShardMap:
// a small tensor whole on server (key * 9973) % S, a large one cut into S
// ranges); their children push to and pull from all of them:
//  - at a child of the global server (a local server, or a worker under
//    flat): a push to the global server goes as S pushes, one per shard, each
//    with the push's losses and counts; a pull asks every shard; the shards'
//    answers of a round are joined into one model and the S acks of a round
//    into one, both handed to the role as from the first server. A shard
//    server restarted from its checkpoint says the round it is at (kControl):
//    the layer sends it again what of the last push and pull it lacks, or
//    counts its ack when it had applied the push before it was lost.
//  - at a shard server: its first answer of each round also goes to the first
//    server, whose layer joins the shards into the whole model and runs the
//    job's RunMonitor on it (evaluation, the stop decision, the last words):
//    its role runs without one.
#pragma once
#include <map>
#include <optional>
#include <vector>

#include "core/layers/shard/shard_map.h"
#include "core/run/monitor.h"
#include "core/runtime/layer_node.h"
#include "core/runtime/stack_needs.h"

namespace geotrain {

// What several global servers ask of the rest of the stack (core/config/stack_fit.h).
StackNeeds multigps_stack_needs();

class ShardNode : public LayerNode {
 public:
  // `servers`: the shard servers' node ids, [0] the first (the global server).
  // `monitor`: the job's, at the first server only (null elsewhere).
  ShardNode(Runtime& rt, const ShardMap& map, std::vector<NodeId> servers, RunMonitor* monitor);

  void send(Message msg) override;
  void on_message(const Message& msg) override;
  void finish(TimeNs now) override;
  // The role's report plus "shard": pushes split, models joined, rounds evaluated.
  nlohmann::json report(TimeNs now) const override;

 private:
  int shard_of(NodeId n) const;  // -1 when not a shard server
  // The shards' parts of one model (or push) as the whole, in key order.
  ParamSet join(const std::vector<std::shared_ptr<const Payload>>& parts) const;
  void child_receive(const Message& msg, int shard);
  void count_ack(const Message& msg, int shard);
  void resync_shard(int shard, std::int64_t server_round);
  void first_server_collect(std::int64_t round, int shard, std::shared_ptr<const Payload> part);

  const ShardMap& map_;
  std::vector<NodeId> servers_;
  RunMonitor* monitor_;
  int my_shard_;
  // A child's state: per round, the shards' answers and acks so far.
  std::map<std::int64_t, std::vector<std::shared_ptr<const Payload>>> answers_;
  std::map<std::int64_t, double> answer_transfer_s_;
  std::map<std::int64_t, std::vector<bool>> acks_;  // per round, which shards acked
  std::vector<Message> last_push_;                  // the last push not yet acked by all, as sent to each shard
  std::optional<Message> last_pull_;                // the last pull request not yet answered by all
  std::vector<bool> pull_answered_;                 // which shards answered it
  // Acked, the model not yet joined (it follows the acks unasked where the
  // policy waits for it): a restarted shard is asked for its part.
  std::optional<std::int64_t> model_due_;
  // The first server's: per round, the shards' models; per push round, the training loss.
  std::map<std::int64_t, std::vector<std::shared_ptr<const Payload>>> models_;
  std::map<std::int64_t, std::map<NodeId, std::pair<double, int>>> loss_;  // push round -> sender -> (loss sum, steps)
  std::int64_t reported_ = 0;   // the last round whose first answer went to the first server
  std::int64_t evaluated_ = 0;  // the last round the monitor saw
  ParamSet last_model_;
  double last_loss_ = 0;
  bool stopped_ = false;
  std::uint64_t split_ = 0, joined_ = 0;
};

}  // namespace geotrain
