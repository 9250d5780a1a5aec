// A worker: computes steps on its shard and pushes to its parent (its DC's
// local server in hips, the global server in flat). What it pushes, when, and
// whether it waits is its SyncPolicy's decision; the mechanism is here. Its
// Protocol, fixed by the policy, is one of three:
//  - kWaits (bsp, local_sgd, esync, ...): push, wait for the ack and the model
//    its parent sends right after it, unasked (or ahead of it: it is kept
//    until the ack), install the model (and the round the server collects
//    next), step again.
//  - kStepsOnGradients (asp, ssp): push after every step and step on; updates
//    made while a push is in flight are summed into the next one; an ack makes
//    it pull the newer model, installed for the step after it arrives; ssp's
//    may_step() holds it until a kRelease.
//  - Local-step policies (local_sgd, esync, nbsync) apply each step with the
//    worker's own optimiser and push the model's change since the last global
//    model, after local_steps() steps or when the state server says so (it is
//    asked after every step, and told before each round's first). Under
//    kStepsOnLocal (nbsync) it steps on from a snapshot while its push is in
//    flight and merges the new global model as w = w_g + (w - w_snap).
// Tracks how long it computed (busy) and how long it waited (blocked: the time
// spent in a Wait). rejoin() (a restarted process) pulls the current model
// before its first step. A kControl from its parent (a restarted global
// server, in flat) re-sends an unacknowledged push.
#pragma once
#include <optional>
#include <vector>

#include "core/optim/optimizer.h"
#include "core/roles/role_context.h"
#include "core/roles/served_copies.h"
#include "core/runtime/runtime.h"
#include "core/topology/deployment.h"

namespace geotrain {

struct WorkerStats {
  TimeNs busy_ns = 0;     // computing
  TimeNs blocked_ns = 0;  // waiting for a model, the state server, or a release
  std::int64_t steps = 0;
  std::int64_t pushes = 0;
};

class Worker : public Actor {
 public:
  // The protocol, fixed by the policy: push and wait for the model (bsp,
  // local_sgd, esync, hfa, gaia, fedavg, fedasync, mixed_sync), or step on
  // while a push is in flight, pushing gradients (asp, ssp) or the local
  // model's change (nbsync, a pipelined esync).
  enum class Protocol { kWaits, kStepsOnGradients, kStepsOnLocal };
  // What a blocked worker waits for: its push's ack, the model (after the ack,
  // or a restarted process's first), the state server's answer, a kRelease
  // (ssp, too far ahead), or its push's merge (stepping on, the model due
  // soon). kNone: computing, or stepping on with pushes in flight.
  enum class Wait { kNone, kAck, kModel, kStateServer, kRelease, kMerge };

  Worker(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx);
  void start() override;
  void rejoin() override;
  void on_message(const Message& msg) override;
  const WorkerStats& stats() const { return stats_; }
  // The same, with the step or the wait still in progress at `now` counted up
  // to `now` (a run that stops mid-wait must not lose that wait).
  WorkerStats stats_at(TimeNs now) const;
  std::int64_t round() const { return round_; }  // the global round this worker is computing for
  // {busy_s, blocked_s, steps, pushes, round}.
  nlohmann::json report(TimeNs now) const override;

 private:
  void begin_step();
  void compute_update();  // the real maths of one step
  void finish_step();
  // Push the model's change (local-step policies). `slack_s`: the state
  // server's slack when it said "push now" (negative: untimed, or not told).
  void end_local_round(double slack_s = -1);
  void push_and_wait(std::shared_ptr<const Payload> update);
  void send_backlog();
  // Encoded with the push stream's codec, counted and traced; returns what was sent.
  std::shared_ptr<const Payload> send_push(std::shared_ptr<const Payload> update);
  void apply_local_step(const Payload& update);  // the local optimiser's step for `update` on params_
  int step_samples() const;                      // the samples of one step
  void report_state();                           // kStateReport(local steps so far, last step, transfer estimate)
  void pull(bool whole = false);
  void install(const Message& response);  // a pulled model: replace, or merge local progress
  void take_early_model();                // the ack came: handle the model that came ahead of it, if any
  // A wait begins (or becomes another: an ack's wait turns into the model's);
  // the blocked time runs from the first.
  void wait_for(Wait w);
  void stop_waiting();  // it ends
  const std::vector<int>& next_batch();

  Runtime& rt_;
  NodeSpec spec_;
  RoleContext ctx_;
  // The model the next step reads (model()): the job's initial model, then the
  // pulled response's own blocks, while the worker has not changed them: shared
  // with every worker (a DC's workers would otherwise hold 16 copies of one
  // model, and at a thousand DCs those copies outgrow the caches); else
  // params_, its own.
  std::shared_ptr<const ParamSet> shared_model_;
  ParamSet params_;
  const ParamSet& model() const { return shared_model_ ? *shared_model_ : params_; }
  ParamSet& own_model();  // params_, copied from the shared model first if need be
  std::shared_ptr<Payload> update_;
  std::shared_ptr<Payload> unapplied_;     // a local step whose update the next step's maths applies first
  std::shared_ptr<const Payload> pushed_;  // last push as sent, until acknowledged
  StreamEncoder push_codec_;
  const bool changes_;   // its parent's pull responses are changes, added to pulled_ (a pull codec)
  const bool answered_;  // its parent follows each ack with the model (model_follows_ack): no pull
  const Protocol protocol_;
  Wait wait_ = Wait::kNone;
  ParamSet pulled_;  // then: its copy of the parent's model
  // A restarted process that asked for the whole model (changes_): answers to its
  // predecessor's pulls, changes from a copy it does not have, are ignored until then.
  bool awaiting_whole_ = false;
  // Policies that do not wait: a pull under way, a push not yet acknowledged
  // (or, stepping locally, whose model is not merged yet), and the gradients
  // made meanwhile, summed into the next push (at most one push per worker is
  // ever in flight, however far compute outpaces the network).
  bool pulling_ = false, push_in_flight_ = false;
  std::shared_ptr<Payload> backlog_;
  std::int64_t slowest_ = 0;  // the slowest worker's clock, as last announced (ssp's may_step())
  // Policies that step locally: the worker's own optimiser, the global model
  // its local progress is measured from, the snapshot it last pushed from (not
  // waiting), local steps and loss so far, and the state server's answers.
  std::unique_ptr<Optimizer> local_opt_;
  ParamSet global_, snapshot_;
  int local_done_ = 0;
  double local_loss_ = 0;
  bool ready_ = false;  // told to push while the previous push is in flight
  // Stepping on (kStepsOnLocal): when the last push went and the state
  // server's slack for it (negative: none to subtract), and how long the last
  // timed push's sync took (push to merge, less the slack): below
  // min_sync_to_step_on_s it waits for the merge (Wait::kMerge) instead.
  TimeNs pushed_at_ = 0;
  double push_slack_s_ = -1, last_sync_s_ = 0;  // untimed: wait, as esync does
  // Timings reported to the state server: the last step's compute time, and
  // the transfer estimate (last pull's duration plus the parent's own fetch).
  double last_step_s_ = 0, transfer_s_ = 0;
  TimeNs pull_sent_ = 0;
  bool asked_ = false;            // the model awaited was asked for (pull_sent_), not answering a push
  std::optional<Message> early_;  // the model answering the push in flight, come ahead of its ack
  // For the summary's comm_time_per_round_s, rounds' communication spans: each round's first push and the model after
  // it, kept here for the report unless the runtime gathers them (RunRecords).
  std::size_t pushes_ = 0, models_ = 0;
  double round_push_s_ = 0;
  std::vector<double> push_s_, model_s_;
  std::int64_t round_ = 0;
  std::vector<int> order_, batch_;
  std::size_t cursor_ = 0;
  TimeNs step_start_ = 0, blocked_since_ = 0;
  WorkerStats stats_;
};

}  // namespace geotrain
