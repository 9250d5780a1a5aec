#include "core/roles/global_server.h"

#include <algorithm>

#include "core/payload/sparse_payload.h"
#include "core/run/checkpoint.h"
#include "core/run/monitor.h"

namespace geotrain {

GlobalServer::GlobalServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx)
    : rt_(rt),
      spec_(spec),
      ctx_(ctx),
      agg_(spec.children, *ctx.policy, ctx.rules),
      opt_(make_optimizer(ctx.optimizer)),
      answers_pushes_(ctx.policy->model_follows_ack()),
      params_(*ctx.initial),
      copies_(*ctx.initial),
      pull_lan_(ctx.pull_stream(spec, Tier::kLan)),
      pull_wan_(ctx.pull_stream(spec, Tier::kWan)) {
  publish();
}

void GlobalServer::publish() {
  auto p = std::make_shared<Payload>();
  const auto keep = ctx_.learner->server_only_keys();
  for (const auto& b : params_)  // what children pull: all but the blocks the learner keeps here
    if (std::find(keep.begin(), keep.end(), b.key) == keep.end()) p->blocks.push_back(b);
  current_ = std::move(p);
}

void GlobalServer::on_message(const Message& msg) {
  if (stopped_) return;
  switch (msg.kind) {
    case MsgKind::kPush:
      // A push for a round already applied without it: the sender was stalled or
      // cut off. Tell it where the job is, so it catches up instead of waiting forever.
      if (!ctx_.policy->accepts(msg.round, rounds_)) {
        if (msg.round < rounds_) tell_round(msg.from);
        break;
      }
      clocks_[msg.from] += msg.payload->contributors;
      ++pushes_;
      ++pushes_by_child_[msg.from];
      staleness_sum_ += rounds_ - msg.round;
      staleness_max_ = std::max(staleness_max_, rounds_ - msg.round);
      open_staleness_ = std::max(open_staleness_, rounds_ - msg.round);
      {
        std::shared_ptr<const Payload> push = msg.payload;
        if (ctx_.policy->compensates_delay()) {  // DC-ASGD: against the model this child computed on
          auto compensated = std::make_shared<Payload>(densify(*push));
          const auto s = served_.find(msg.from);
          ctx_.policy->compensate(*compensated, params_, s != served_.end() ? s->second->blocks : *ctx_.initial);
          push = std::move(compensated);
        }
        const std::int64_t before = rounds_;
        // The child adds what it pushed to its copy itself: its next pull carries only the others' change.
        if (ctx_.policy->pulls_changes()) copies_.add_own_push(msg.from, *push);
        if (agg_.add(msg.from, push)) apply_round();
        if (rounds_ > before && ctx_.policy->announces_changes() && carries_entries(*push))
          for (NodeId c : spec_.children)  // selective barrier: the others pull it before going on
            if (c != msg.from && agg_.is_live(c)) rt_.send(make_message(MsgKind::kRelease, spec_.id, c, rounds_));
      }
      announce_clock();
      break;
    case MsgKind::kPullRequest:
      if (!agg_.is_live(msg.from)) agg_.readmit(msg.from);
      answer(msg.from, msg.round == kWholeModel);
      break;
    default: break;
  }
}

void GlobalServer::answer(NodeId child, bool whole) {
  StreamEncoder& codec = pull_codec(child);
  Sent model;
  if (codec.active()) {
    model = copies_.serve(child, current_->blocks, codec, whole, rt_.now());
  } else {
    if (ctx_.policy->compensates_delay()) served_[child] = current_;
    model = codec.encode(current_, rt_.now());  // the whole model (counted by its stream as dense)
  }
  rt_.send(make_message(MsgKind::kPullResponse, spec_.id, child, rounds_, model));
}

StreamEncoder& GlobalServer::pull_codec(NodeId child) {
  return ctx_.tier(spec_.id, child) == Tier::kLan ? pull_lan_ : pull_wan_;
}

void GlobalServer::on_peer_down(NodeId child) {
  if (!stopped_ && agg_.drop(child)) apply_round();
  announce_clock();  // a lost child no longer holds the others back
}

void GlobalServer::announce_clock() {
  if (stopped_ || !ctx_.policy->announces_clock()) return;
  std::int64_t slowest = -1;
  for (NodeId c : spec_.children)
    if (agg_.is_live(c)) slowest = slowest < 0 ? clocks_[c] : std::min(slowest, clocks_[c]);
  if (slowest <= announced_) return;
  announced_ = slowest;
  for (NodeId c : spec_.children)
    if (agg_.is_live(c)) rt_.send(make_message(MsgKind::kRelease, spec_.id, c, slowest));
}

void GlobalServer::on_peer_up(NodeId child) {
  if (!stopped_) tell_round(child);
}

void GlobalServer::tell_round(NodeId child) { rt_.send(make_message(MsgKind::kControl, spec_.id, child, rounds_)); }

void GlobalServer::finish(TimeNs now) {
  if (ctx_.monitor) ctx_.monitor->finish(now, rounds_, params_, last_loss_);
}

nlohmann::json GlobalServer::report(TimeNs) const {
  nlohmann::json by_child = nlohmann::json::object();
  for (const auto& [c, n] : pushes_by_child_) by_child[std::to_string(c)] = n;
  nlohmann::json j = {{"rounds", rounds_},
                      {"pushes_by_child", by_child},
                      {"restored_rounds", restored_rounds_},
                      {"pushes", pushes_},
                      {"staleness_mean", pushes_ > 0 ? double(staleness_sum_) / double(pushes_) : 0.0},
                      {"staleness_max", staleness_max_}};
  report_stream(j, stream_name(Tier::kLan, false), pull_lan_);
  report_stream(j, stream_name(Tier::kWan, false), pull_wan_);
  return j;
}

void GlobalServer::apply_mean(const ParamSet& mean) {
  if (!ctx_.policy->pushes_model_delta()) return opt_->apply(params_, mean);
  const float g = float(ctx_.policy->global_lr(open_staleness_));
  if (ctx_.policy->mixes_models()) scale(params_, 1.0f - g);  // w = (1 - g) w + g mean
  add_scaled(params_, mean, g);
}

void GlobalServer::apply_merged(const ParamSet& update, int contributors) {
  if (contributors > 0) return ctx_.learner->apply(params_, update, contributors);
  apply_mean(update);
}

void GlobalServer::apply_round() {
  std::vector<NodeId> contributors;
  std::shared_ptr<Payload> sum = agg_.take(&contributors);
  const int n = std::max(1, sum->contributors);
  // The learner's own rule, or the mean of the workers' gradients (or model changes) through the optimiser.
  const int applied_by_learner = ctx_.caps.apply == Apply::kLearner ? n : 0;
  if (!applied_by_learner) scale(sum->blocks, 1.0f / float(n));
  apply_merged(sum->blocks, applied_by_learner);
  open_staleness_ = 0;
  last_loss_ = sum->loss_sum / n;
  publish();
  const std::int64_t round = rounds_++;
  if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kGlobalApplied, round);
  const std::size_t rows_before = ctx_.monitor ? ctx_.monitor->timeline().size() : 0;
  const bool stop = ctx_.monitor && ctx_.monitor->on_round(rt_.now(), rounds_, params_, last_loss_);
  if (ctx_.checkpoints) {  // durable before anyone hears the round is done
    LoggedRound lr{round, std::move(sum->blocks), applied_by_learner, last_loss_, std::nullopt};
    if (ctx_.monitor && ctx_.monitor->timeline().size() > rows_before) lr.evaluation = ctx_.monitor->timeline().back();
    ctx_.checkpoints->log_round(lr);
    if (ctx_.checkpoint_every > 0 && rounds_ % ctx_.checkpoint_every == 0) {
      ServerSnapshot s{rounds_, params_, opt_->state(), {}, std::nullopt};
      if (ctx_.monitor) {
        s.timeline = ctx_.monitor->timeline();
        s.time_to_target_s = ctx_.monitor->time_to_target_s();
      }
      ctx_.checkpoints->save(s);
    }
  }
  if (stop) {
    stopped_ = true;
    rt_.stop();
    return;
  }
  for (NodeId c : contributors)
    if (agg_.is_live(c)) {
      rt_.send(make_message(MsgKind::kPushAck, spec_.id, c, round));
      if (answers_pushes_) answer(c, false);  // the model follows the ack: the child does not ask
    }
}

void GlobalServer::rejoin() {
  copies_.forget();  // children hold copies this process never saw: their next pulls start from zeros
  if (ctx_.checkpoints) {
    std::vector<TimelineRow> rows;
    std::optional<double> ttt;
    if (auto snap = ctx_.checkpoints->load_snapshot()) {
      rounds_ = snap->rounds;
      params_ = snap->params;
      opt_->restore(snap->optimizer);
      rows = snap->timeline;
      ttt = snap->time_to_target_s;
    }
    for (const auto& lr : ctx_.checkpoints->load_log()) {
      if (lr.round != rounds_) continue;  // older than the snapshot (or a gap: stop replaying)
      apply_merged(lr.mean_update, lr.contributors);
      last_loss_ = lr.train_loss;
      ++rounds_;
      if (lr.evaluation) rows.push_back(*lr.evaluation);
    }
    if (ctx_.monitor) ctx_.monitor->restore(rows, ttt);
    publish();
  }
  restored_rounds_ = rounds_;
  resync_children();
}

// Until the first round after a restart is applied, repeat the resync every
// second: a resync (or the pushes it triggers) may be lost with the links the
// crash broke. Children treat repeats idempotently (duplicate pushes are ignored).
void GlobalServer::resync_children() {
  if (stopped_ || rounds_ != restored_rounds_) return;
  for (NodeId c : spec_.children) rt_.send(make_message(MsgKind::kControl, spec_.id, c, rounds_));
  rt_.schedule(kNsPerSecond, [this] { resync_children(); });
}

}  // namespace geotrain
