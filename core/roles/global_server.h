// The global server: owns the parameters and the optimiser. Under FSA it waits
// for every live child (local servers in hips, workers in flat) to push the
// round it is collecting, averages over the contributing worker steps, applies
// the optimiser, asks the RunMonitor whether the job is over, then
// acknowledges the contributors and serves pulls. Under a policy whose
// children want the model at every ack (model_follows_ack: those that wait for
// it, and nbsync), each acknowledgement is followed at once by the model,
// unasked: a synchronous round costs the push's trip and the model's, not a
// pull request's trip besides (ps-lite's ZPushPull). Children of asp and ssp
// ask for it (a pull request), as does any child recovering from a fault.
//
// Faults: a child reported down is no longer waited for (the round proceeds
// without it); a child that pulls while not live is readmitted. With a
// CheckpointStore, every applied round is logged before it is acknowledged and
// a snapshot is taken every `checkpoint_every` rounds; rejoin() (a restarted
// server) restores snapshot + log and tells every child the round it is
// collecting (kControl), so pushes lost in the crash are re-sent.
#pragma once
#include <map>
#include <memory>

#include "core/optim/optimizer.h"
#include "core/roles/aggregator.h"
#include "core/roles/role_context.h"
#include "core/roles/served_copies.h"
#include "core/runtime/runtime.h"
#include "core/topology/deployment.h"

namespace geotrain {

class GlobalServer : public Actor {
 public:
  GlobalServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx);
  void start() override {}
  void rejoin() override;
  void on_message(const Message& msg) override;
  void on_peer_down(NodeId child) override;
  void on_peer_up(NodeId child) override;

  const ParamSet& params() const { return params_; }
  std::int64_t rounds() const { return rounds_; }
  double last_train_loss() const { return last_loss_; }
  std::int64_t restored_rounds() const { return restored_rounds_; }
  void finish(TimeNs now) override;  // the monitor's final evaluation
  // {rounds, pushes_by_child, restored_rounds, pushes, staleness_mean, staleness_max}.
  nlohmann::json report(TimeNs now) const override;

 private:
  void apply_round();
  void apply_mean(const ParamSet& mean);
  // contributors > 0: Learner::apply of the merged update of that many steps; 0: apply_mean.
  void apply_merged(const ParamSet& update,
                    int contributors);  // a mean gradient through the optimiser, or a mean model change
  void publish();                       // current_ = params_
  void resync_children();
  void tell_round(NodeId child);  // kControl(rounds_): "the job is at this round"
  void announce_clock();          // kRelease(slowest live child's clock), if it advanced and the policy says so
  StreamEncoder& pull_codec(NodeId child);  // the stream its pull responses to `child` take
  void answer(NodeId child, bool whole);    // sends `child` the model (kPullResponse); `whole`: from zeros
  Runtime& rt_;
  NodeSpec spec_;
  RoleContext ctx_;
  Aggregator agg_;
  std::unique_ptr<Optimizer> opt_;
  const bool answers_pushes_;  // the model follows every acknowledgement (model_follows_ack)
  ParamSet params_;
  std::shared_ptr<const Payload> current_;
  std::int64_t rounds_ = 0;  // rounds applied == the round being collected
  double last_loss_ = 0;
  bool stopped_ = false;
  std::int64_t restored_rounds_ = -1;      // rounds recovered by rejoin(), -1 if none
  std::map<NodeId, std::int64_t> clocks_;  // steps applied from each child
  std::int64_t announced_ = 0;             // the slowest clock last announced
  // Accepted pushes and their staleness: rounds applied since the sender's model.
  std::int64_t pushes_ = 0, staleness_sum_ = 0, staleness_max_ = 0;
  std::int64_t open_staleness_ = 0;  // the largest among the open round's pushes
  std::map<NodeId, std::int64_t> pushes_by_child_;
  // The model each child last pulled, when the policy compensates delay.
  std::map<NodeId, std::shared_ptr<const Payload>> served_;
  // Children's copies of the model, when pulls carry changes (a pull stream
  // with a codec: one chosen, or `sparse` for a policy that pulls changes),
  // and the pull streams by tier.
  ServedCopies copies_;
  StreamEncoder pull_lan_, pull_wan_;
};

}  // namespace geotrain
