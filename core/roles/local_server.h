// A DC's local server (HiPS lower tier): sums its live workers' pushes for the
// round it is collecting until its SyncPolicy calls the round complete, pushes
// the sum to the global server, gets the new parameters once the push is
// acknowledged, and only then acknowledges the workers that contributed and
// serves them the model (REFERENCE.md section 1). Where the policy says so
// (model_follows_ack), the model follows an acknowledgement unasked, on both tiers (as
// the global server's does, core/roles/global_server.h): a round costs two
// trips each way, not four; the model may arrive ahead of its ack (a
// scheduled group relays it by another path) and is kept until the ack comes.
// Otherwise the model is asked for (a pull request) after the ack. One push is in flight at a
// time: under an asynchronous policy (asp) pushes that arrive meanwhile are
// summed and go up as soon as it is through, and the global server moving
// ahead of the local one is normal, not a sign of having fallen behind.
//
// Local rounds (HFA): when its policy's local_rounds_per_push() is k > 1, it
// closes k - 1 of every k rounds inside the DC (applies the mean of its
// workers' model changes to its own copy of the model and releases them with
// it) and pushes the k-th as the DC's change since the last global model. Its
// workers count local rounds, the global server WAN syncs: round r here is
// r / k there.
//
// Background sync (Gaia: its policy's syncs_in_background()): it closes every
// round inside the DC and keeps one sync with the global server going beside
// them: push what select_push() picks of the DC's unsent change, pull, and
// rebase the DC's model on the pulled global model (plus the change not yet
// applied there). Its workers wait only at the mirror-clock bound or, told
// of another DC's significant change (kRelease), until they have pulled it.
//
// Faults: a worker reported down is no longer waited for; a worker that pulls
// while not live is readmitted (it rejoined) and told which round is being
// collected. A kControl from the global server ("resync at round R", sent by a
// restarted global server) makes it re-push a sum the server never applied, or
// treat an applied one as acknowledged.
//
// Catching up: a local server that finds the global server ahead of it (it was
// stalled or cut off and dropped, or it is a restarted process) drops what it
// was collecting, adopts the server's round and tells every worker where the
// job is (kControl), so they pull and continue; a worker that was dropped, or
// pushes a round already closed, is told the same.
#pragma once
#include <limits>
#include <optional>

#include "core/roles/aggregator.h"
#include "core/roles/role_context.h"
#include "core/roles/served_copies.h"
#include "core/runtime/runtime.h"
#include "core/topology/deployment.h"

namespace geotrain {

class LocalServer : public Actor {
 public:
  LocalServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx);
  void start() override {}
  void rejoin() override;
  void on_message(const Message& msg) override;
  void on_peer_down(NodeId worker) override;
  void on_peer_up(NodeId worker) override;
  // Local rounds closed, and for background sync: syncs completed, rounds
  // whose workers were held (by the mirror clock, by the selective barrier),
  // pulls made only for the barrier.
  nlohmann::json report(TimeNs now) const override;
  const ParamSet& model() const { return params_->blocks; }         // the DC's model
  const ParamSet& global_model() const { return global_->blocks; }  // the last global model pulled

 private:
  void push_upstream();
  void on_model(const Message& msg);                // new global parameters, asked for or answering our push
  void answer(NodeId worker, bool whole);           // sends `worker` the DC's model; `whole`: from zeros
  double fetched_s(const Message& response) const;  // how long the model took to come, plus its own fetch
  void pull_upstream(std::int64_t round);
  // The open round is complete: close it here, push it now, or push it once
  // the push in flight is through.
  void push_when_free();
  void close_locally();  // a local round: apply its mean here and release the workers
  // Background sync: start one when none is in flight and there is news;
  // merge a pulled change; are the workers held, and release them.
  void sync_in_background();
  void merge_pulled(const Message& msg);
  // The global model a pull response brings: the response itself, or (changes_)
  // our copy advanced by it.
  std::shared_ptr<const Payload> pulled_model(std::shared_ptr<const Payload> response) const;
  bool holds_workers() const;
  void release_held();
  void ack(const std::vector<NodeId>& workers, std::int64_t round);
  static void add_mean(ParamSet& into, const Payload& sum);  // into += sum / its contributors
  std::int64_t upstream(std::int64_t round) const { return round / per_push_; }
  // The global server's rules, for its acknowledgements and rounds.
  const SyncPolicy& parent() const { return ctx_.parent_policy ? *ctx_.parent_policy : *ctx_.policy; }
  void resync(std::int64_t server_round);
  void tell_round(NodeId worker);
  Runtime& rt_;
  NodeSpec spec_;
  RoleContext ctx_;
  Aggregator agg_;
  const std::int64_t per_push_;              // rounds per upstream push (local_rounds_per_push)
  const bool background_;                    // syncs_in_background
  const bool answers_pushes_;                // its acks to workers are followed by the model
  const bool answered_;                      // the global server's acks to it are followed by the model
  StreamEncoder push_codec_;                 // its pushes up
  StreamEncoder pull_codec_;                 // its pull responses to its workers
  const bool changes_;                       // the global server's pull responses are changes
  ServedCopies copies_;                      // its workers' copies, when pull_codec_ is active
  std::shared_ptr<const Payload> params_;    // the DC's model, shared with every response
  std::shared_ptr<const Payload> global_;    // the last global model pulled (HFA's milestone)
  std::int64_t collecting_ = 0;              // the round whose pushes are being summed
  std::shared_ptr<const Payload> inflight_;  // pushed upstream, not yet acknowledged
  std::int64_t inflight_round_ = -1;         // its round at the global server
  std::int64_t acked_round_ = -1;            // the same round as the workers number it
  static constexpr std::int64_t kNoPush = std::numeric_limits<std::int64_t>::max();
  std::int64_t oldest_ = kNoPush;  // oldest round pushed into the open sum
  std::vector<NodeId> to_ack_;     // contributors of the round in flight
  bool awaiting_params_ = false;   // acknowledged upstream, pull sent, no parameters yet
  bool adopt_ = false;             // a restarted process: adopt the workers once the parameters arrive
  // A restarted process that asked for the whole model (changes_): answers to its
  // predecessor's pulls, changes from a copy it does not have, are ignored until then.
  bool awaiting_whole_ = false;
  bool pending_ = false;  // a complete sum waits for the push in flight (asynchronous policies)
  // Background sync.
  ParamSet sent_;                  // what the sync in flight pushed (dense), not yet in global_
  std::int64_t global_round_ = 0;  // the global server's round of global_
  std::int64_t pushed_at_ = 0;     // rounds closed here when the latest sync pushed
  std::int64_t synced_at_ = 0;     // the same for the latest completed sync
  std::int64_t need_round_ = 0;    // selective barrier: hold the workers until global_round_ reaches it
  std::vector<NodeId> held_;       // workers of a closed round, not yet acknowledged
  std::int64_t held_round_ = 0;
  double unsent_loss_ = 0;  // training loss summed over the steps since the last push
  int unsent_steps_ = 0;
  std::int64_t syncs_ = 0, held_by_clock_ = 0, held_by_barrier_ = 0, barrier_pulls_ = 0;
  // How long the last upstream pull took: passed on with every pull response
  // (transfer_s), so workers can estimate their whole path's transfer time.
  TimeNs pull_sent_ = 0;
  bool asked_ = false;            // the model awaited was asked for (pull_sent_), not answering a push
  std::optional<Message> early_;  // the model answering the push in flight, come ahead of its ack
  double fetch_s_ = 0;
};

}  // namespace geotrain
