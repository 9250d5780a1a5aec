// What a synchronisation policy decides. The roles keep the mechanism, written
// once (push, ack, pull, resync on the child side; membership, summing and
// serving pulls on the server side) and ask their SyncPolicy at each decision
// point, the way ns-3's TcpSocketBase asks its TcpCongestionOps. No role ever
// looks at a policy's name. One instance per role instance.
#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>

#include "core/base/time.h"
#include "core/payload/message.h"

namespace geotrain {

// A server's open round, as its policy sees it.
struct RoundView {
  std::size_t pushed = 0;        // members that pushed into the open round
  std::size_t live = 0;          // members not reported down
  bool all_live_pushed = false;  // every live member is among those that pushed
};

// What a state server knows of one worker (ESync-style balancing): its
// latest report, made before each of its steps.
struct WorkerState {
  std::int64_t k = 0;            // local steps done in its current local round
  double step_s = 0;             // its last step's compute time (0: none yet)
  double transfer_s = 0;         // its estimate of the time its update takes to reach the top
  TimeNs reported_at = 0;        // when the report arrived: its current step began about then
  std::int64_t pushes_told = 0;  // "push now" replies it has had (local rounds it closed)
  bool between_rounds = false;   // told to push, and not yet begun its next local round
};

// A state server's answer to a worker's report.
struct PushAdvice {
  bool push = true;    // end the local round and push now (else: one more step)
  double slack_s = 0;  // when pushing: how long until the slowest worker ends its
                       // round's compute (0: this push closes the round); the
                       // part of the worker's wait for the model that is not
                       // sync; negative: unknown (not every worker has timed a step)
};

class SyncPolicy {
 public:
  virtual ~SyncPolicy() = default;
  // Server: does a push made against `push_round` count, the server being at
  // `server_round`? A push that does not count and is behind the server tells
  // its sender where the job is (it was stalled or cut off).
  virtual bool accepts(std::int64_t push_round, std::int64_t server_round) const = 0;
  // Server: is the open round complete?
  virtual bool round_complete(const RoundView& r) const = 0;
  // Worker: after a push, does its next step wait for the new model (and the
  // push's acknowledgement)? If not, it steps on with the model it has and
  // installs a newer one whenever it arrives.
  virtual bool waits_for_model() const = 0;
  // Server: does it send a child the model right behind each acknowledgement,
  // unasked (the child would ask for it at once)? Then a round costs a trip up
  // and a trip down, not a pull request's trip besides. Children that wait for
  // the model do; those that step on and ask for a newer model only once the
  // last one is in (asp, ssp) ask.
  virtual bool model_follows_ack() const { return waits_for_model(); }
  // Worker that does not wait for the model: may it start another step, having
  // completed `steps` while the slowest member's clock known to it (steps the
  // server has applied from it, by kRelease) is `slowest`?
  virtual bool may_step(std::int64_t steps, std::int64_t slowest) const {
    (void)steps;
    (void)slowest;
    return true;
  }
  // Server: does it tell its members the slowest member's clock whenever it
  // advances (kRelease), so that workers held by may_step() can go on?
  virtual bool announces_clock() const { return false; }
  // Worker: local steps (each applied with the worker's own optimiser) before
  // it pushes, for a worker with `shard_samples` training samples and batches
  // of `batch_size`; 1 = push every step's gradient.
  virtual int local_steps(std::size_t shard_samples, int batch_size) const {
    (void)shard_samples;
    (void)batch_size;
    return 1;
  }
  // What a worker pushes: its model's change since the last global model
  // (w_local - w_global), or (false) its step's gradient. The global server
  // applies a mean change as w += global_lr(staleness) * mean (staleness: the
  // rounds applied since the model the oldest change in it started from), a
  // mean gradient with the scenario's optimiser.
  virtual bool pushes_model_delta() const { return false; }
  virtual double global_lr(std::int64_t staleness) const {
    (void)staleness;
    return 1.0;
  }
  // Worker of a policy that pushes model deltas: does it push its model w_i
  // itself instead, for the global server to mix, w = (1 - g) w + g mean(w_i)
  // with g = global_lr(staleness) (FedAsync)? Mixing, unlike adding changes,
  // never moves w past the models it mixes in.
  virtual bool mixes_models() const { return false; }
  // Worker: does its change count once per training sample it holds (FedAvg's
  // weighting), not once per worker?
  virtual bool weights_by_samples() const { return false; }
  // Local server (of a policy that pushes model deltas): rounds per push up.
  // It closes the others inside its DC: applies the mean of its workers'
  // changes to its own copy of the model and releases them with it; the k-th
  // goes up as the DC's change since the last global model (HFA's K2).
  virtual int local_rounds_per_push() const { return 1; }
  // Local server (of a policy that pushes model deltas): does it close every
  // round inside its DC, so its workers never wait for the WAN, and sync with
  // the global server in the background (Gaia)? A sync pushes the part of the
  // DC's unsent change that select_push() picks (as one change, contributors
  // 1), pulls, and rebases the DC's model on the pulled one; what the push
  // left out stays in the DC's model for the next sync. One sync is in flight
  // at a time, and the next starts as soon as it is through.
  virtual bool syncs_in_background() const { return false; }
  // The part of `change` (the DC's unsent change since `global`, the last
  // global model it pulled) that crosses the WAN at local round `round`.
  virtual Payload select_push(const ParamSet& change, const ParamSet& global, std::int64_t round) const {
    (void)global;
    (void)round;
    Payload p;
    p.blocks = change;
    return p;
  }
  // A background-syncing DC's workers wait once it has closed this many
  // rounds since the push of its last completed sync (Gaia's mirror clock
  // bound on how far a DC's model may run from the others').
  virtual int max_rounds_unsynced() const { return std::numeric_limits<int>::max(); }
  // Global server: does it answer each child's pull with only what changed
  // since the model it last served that child (coded sparsely where that is
  // smaller), which the child adds to its copy, instead of the whole model?
  virtual bool pulls_changes() const { return false; }
  // Global server: after applying a push that changed the model, does it tell
  // its other children (kRelease, round: the rounds applied), which then hold
  // their workers at the next local round until they have pulled that round
  // (Gaia's selective barrier: a significant update is seen before anyone
  // computes on without it)?
  virtual bool announces_changes() const { return false; }
  // Global server: does it compensate a push for its delay (DC-ASGD)? It then
  // remembers the model it last served each child and, before summing a
  // child's push (a sum of `push.contributors` gradients), calls compensate()
  // with the current model and that one.
  virtual bool compensates_delay() const { return false; }
  virtual void compensate(Payload& push, const ParamSet& now, const ParamSet& served) const {
    (void)push;
    (void)now;
    (void)served;
  }
  // Worker that pushes model deltas and does not wait for the model: while its
  // push is in flight it steps on from a snapshot w_snap of the model it pushed
  // from; the new global model w_g is merged as w = w_g + (w - w_snap).
  // (Such a worker never has more than one push in flight.) It waits for the
  // model after all when its last sync took less than this: the time from its
  // push to the merge, less the state server's slack (the wait for the
  // slowest worker's compute, which esync tolerates anyway). Pipelining would
  // then hide little, and the steps would be computed on a model about to be
  // replaced.
  virtual double min_sync_to_step_on_s() const { return 0; }

  // Does the deployment have a state server, which each worker (of a policy
  // that steps locally) reports to before every step? It then ends a local
  // round when the state server says so (push_now), not after local_steps().
  virtual bool uses_state_server() const { return false; }
  // State server: worker `r` (whose report just arrived, at `now`) asks
  // whether to push now or take one more local step.
  virtual PushAdvice push_now(const std::map<NodeId, WorkerState>& workers, NodeId r, TimeNs now) const {
    (void)workers;
    (void)r;
    (void)now;
    return {};
  }
};

}  // namespace geotrain
