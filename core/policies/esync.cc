#include "core/policies/esync.h"

#include <algorithm>

namespace geotrain {

PushAdvice esync_push_now(const std::map<NodeId, WorkerState>& workers, NodeId r, TimeNs now, double eps,
                          bool transfer_aware) {
  auto cost = [&](const WorkerState& w) { return w.step_s + (transfer_aware ? w.transfer_s : 0.0); };
  const WorkerState& me = workers.at(r);
  if (me.k < 1) return {false, 0};
  // The slowest worker: the largest cost among those that have timed a step.
  // Until all have, the slack is unknown (the slowest may not have timed one).
  NodeId s = -1;
  double worst = 0;
  bool all_timed = true;
  for (const auto& [id, w] : workers) {
    all_timed = all_timed && w.step_s > 0;
    if (w.step_s > 0 && (s < 0 || cost(w) > worst)) s = id, worst = cost(w);
  }
  const double closes = all_timed ? 0.0 : -1.0;  // slack of a push that closes the round
  if (s < 0 || s == r) return {true, closes};
  const WorkerState& slow = workers.at(s);
  if (slow.pushes_told > me.pushes_told) return {true, closes};  // it already closed the round r is in
  // Between rounds (it pushed the last round, and has not begun this one: its
  // model is still on the way) its next step has not started: all of it is ahead.
  double rest = slow.between_rounds ? cost(slow) : cost(slow) - to_seconds(now - slow.reported_at);
  // Pipelined (nbsync), r may have pushed rounds the slowest has not closed
  // yet: the round r is in ends that many of the slowest's rounds later.
  rest += double(me.pushes_told - slow.pushes_told) * cost(slow);
  return {cost(me) + eps > rest, all_timed ? std::max(0.0, rest) : -1.0};
}

namespace {

// esync, and nbsync when `pipelined` (workers do not wait for the model).
class BalancedLocalRounds : public SyncPolicy {
 public:
  BalancedLocalRounds(const PolicyParams& p, bool pipelined)
      : eps_(p.at("eps")),
        transfer_aware_(p.at("transfer_aware") != 0),
        global_lr_(p.at("global_lr")),
        pipelined_(pipelined) {}
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override { return push_round == server_round; }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0 && r.all_live_pushed; }
  bool waits_for_model() const override { return !pipelined_; }
  bool model_follows_ack() const override { return true; }  // nbsync merges the acknowledged round's model
  bool pushes_model_delta() const override { return true; }
  double global_lr(std::int64_t) const override { return global_lr_; }
  bool uses_state_server() const override { return true; }
  double min_sync_to_step_on_s() const override { return eps_; }
  PushAdvice push_now(const std::map<NodeId, WorkerState>& w, NodeId r, TimeNs now) const override {
    return esync_push_now(w, r, now, eps_, transfer_aware_);
  }

 private:
  double eps_;
  bool transfer_aware_;
  double global_lr_;
  bool pipelined_;
};

}  // namespace

std::unique_ptr<SyncPolicy> make_balanced_local_rounds(const PolicyParams& p, bool pipelined) {
  return std::make_unique<BalancedLocalRounds>(p, pipelined);
}

PolicyInfo esync_policy() {
  return {
      "esync",
      {},
      "a state server balances local steps so workers of unequal speed push together (synchronous rounds)",
      {{"eps", 0.5, 0.0, 1e6, false, "seconds of slack: stop when one more step would end within eps of the slowest"},
       {"transfer_aware", 0, 0, 1, true, "0: balance compute time (published); 1: compute plus transfer time"},
       {"global_lr", 1.0, 0.0, 100.0, false, "the server's step on the mean model change"}},
      {"hips", "flat"},
      [](const PolicyParams& p, Role) { return make_balanced_local_rounds(p, false); }};
}

}  // namespace geotrain
