#include "core/roles/local_server.h"

#include <algorithm>

namespace geotrain {

LocalServer::LocalServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx)
    : rt_(rt),
      spec_(spec),
      ctx_(ctx),
      agg_(spec.children, *ctx.policy, ctx.rules),
      per_push_(ctx.policy->local_rounds_per_push()),
      background_(ctx.policy->syncs_in_background()),
      answers_pushes_(ctx.policy->model_follows_ack()),
      answered_((ctx.parent_policy ? *ctx.parent_policy : *ctx.policy).model_follows_ack()),
      push_codec_(ctx.push_stream(spec)),
      pull_codec_(ctx.pull_stream(spec, Tier::kLan)),
      changes_(ctx.pulls_changes(spec)),
      copies_(*ctx.initial) {
  auto p = std::make_shared<Payload>();
  p->blocks = *ctx.initial;
  params_ = std::move(p);
  global_ = params_;
}

void LocalServer::push_upstream() {
  if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kLocalPushed, collecting_);
  std::shared_ptr<Payload> sum = agg_.take(&to_ack_);
  if (per_push_ > 1) {  // the DC's change since the last global model, as a sum over this round's contributors
    ParamSet change = params_->blocks;
    add_scaled(change, global_->blocks, -1.0f);
    add_mean(change, *sum);
    scale(change, float(std::max(1, sum->contributors)));
    sum->blocks = std::move(change);
  }
  const Sent sent = push_codec_.encode(std::move(sum), rt_.now());
  inflight_ = sent.payload;
  // Tagged with the oldest model in the sum: under an asynchronous policy a
  // worker's push may come from a round before the one collected, and the
  // global server weighs (and counts) staleness by it.
  inflight_round_ = upstream(std::min(collecting_, oldest_));
  oldest_ = kNoPush;
  acked_round_ = collecting_++;
  rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, inflight_round_, sent));
}

void LocalServer::add_mean(ParamSet& into, const Payload& sum) {
  add_scaled(into, sum.blocks, 1.0f / float(std::max(1, sum.contributors)));
}

void LocalServer::close_locally() {
  std::vector<NodeId> members;
  std::shared_ptr<Payload> sum = agg_.take(&members);
  oldest_ = kNoPush;
  auto next = std::make_shared<Payload>();
  next->blocks = params_->blocks;
  add_mean(next->blocks, *sum);
  params_ = std::move(next);
  unsent_loss_ += sum->loss_sum;
  unsent_steps_ += sum->contributors;
  const std::int64_t closed = collecting_++;
  if (background_ && holds_workers()) {
    held_ = std::move(members);
    held_round_ = closed;
    ++(global_round_ < need_round_ ? held_by_barrier_ : held_by_clock_);
  } else {
    ack(members, closed);
  }
}

void LocalServer::ack(const std::vector<NodeId>& workers, std::int64_t round) {
  for (NodeId w : workers)
    if (agg_.is_live(w)) {
      rt_.send(make_message(MsgKind::kPushAck, spec_.id, w, round));
      if (answers_pushes_) answer(w, false);  // the model follows the ack: the worker does not ask
    }
}

void LocalServer::answer(NodeId worker, bool whole) {
  const Sent model = pull_codec_.active() ? copies_.serve(worker, params_->blocks, pull_codec_, whole, rt_.now())
                                          : pull_codec_.encode(params_, rt_.now());  // counted as dense
  Message m = make_message(MsgKind::kPullResponse, spec_.id, worker, collecting_, model);
  m.transfer_s = fetch_s_;
  rt_.send(std::move(m));
}

double LocalServer::fetched_s(const Message& response) const {
  const double took = asked_ ? to_seconds(rt_.now() - pull_sent_) : to_seconds(rt_.now()) - response.sent_s;
  return took + response.transfer_s;
}

bool LocalServer::holds_workers() const {
  return collecting_ - synced_at_ >= ctx_.policy->max_rounds_unsynced() || global_round_ < need_round_;
}

void LocalServer::release_held() {
  if (held_.empty() || holds_workers()) return;
  ack(held_, held_round_);
  held_.clear();
}

void LocalServer::sync_in_background() {
  if (inflight_ || awaiting_params_) return;
  if (collecting_ == synced_at_) {  // nothing new to push; pull if a barrier waits for it
    if (global_round_ < need_round_) {
      ++barrier_pulls_;
      awaiting_params_ = true;
      pull_upstream(global_round_);
    }
    return;
  }
  if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kLocalPushed, collecting_);
  ParamSet change = params_->blocks;
  add_scaled(change, global_->blocks, -1.0f);
  auto push = std::make_shared<Payload>(ctx_.policy->select_push(change, global_->blocks, collecting_));
  push->contributors = 1;  // one DC change, applied as it is
  push->loss_sum = unsent_steps_ > 0 ? unsent_loss_ / unsent_steps_ : 0;
  unsent_loss_ = 0;
  unsent_steps_ = 0;
  const Sent sent = push_codec_.encode(std::move(push), rt_.now());
  inflight_ = sent.payload;
  sent_ = densify(*inflight_).blocks;  // as the server will decode it
  pushed_at_ = collecting_;
  inflight_round_ = global_round_;  // the model its change started from: the server counts staleness by it
  rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, inflight_round_, sent));
}

std::shared_ptr<const Payload> LocalServer::pulled_model(std::shared_ptr<const Payload> response) const {
  if (!changes_) return response->coded.empty() ? response : std::make_shared<Payload>(densify(*response));
  // Our push (background sync), then the others' change: the order and
  // arithmetic the server keeps its copy of ours with, so the two are the same bits.
  auto global = std::make_shared<Payload>();
  global->blocks = global_->blocks;
  if (!sent_.empty() && parent().pulls_changes()) add_scaled(global->blocks, sent_);
  apply_served(global->blocks, *response);
  return global;
}

void LocalServer::merge_pulled(const Message& msg) {
  if (!awaiting_params_) return;
  awaiting_params_ = false;
  fetch_s_ = fetched_s(msg);
  std::shared_ptr<const Payload> global = pulled_model(msg.payload);
  // The DC's model: the new global one plus the change made here that it lacks.
  auto next = std::make_shared<Payload>();
  next->blocks = params_->blocks;
  add_scaled(next->blocks, global_->blocks, -1.0f);
  if (!sent_.empty()) add_scaled(next->blocks, sent_, -1.0f);
  add_scaled(next->blocks, global->blocks);
  sent_.clear();
  params_ = std::move(next);
  global_ = std::move(global);
  global_round_ = std::max(global_round_, msg.round);
  synced_at_ = pushed_at_;
  ++syncs_;
  if (adopt_) {  // a restarted process: its workers go on from here
    adopt_ = false;
    for (NodeId w : spec_.children) tell_round(w);
  }
  release_held();
  sync_in_background();
}

nlohmann::json LocalServer::report(TimeNs) const {
  nlohmann::json j = {{"local_rounds", collecting_}};
  report_stream(j, stream_name(ctx_.tier(spec_.id, spec_.parent), true), push_codec_);
  report_stream(j, stream_name(Tier::kLan, false), pull_codec_);
  if (background_)
    j.update({{"syncs", syncs_},
              {"held_by_mirror_clock", held_by_clock_},
              {"held_by_barrier", held_by_barrier_},
              {"barrier_pulls", barrier_pulls_}});
  return j;
}

void LocalServer::push_when_free() {
  if (background_) {
    close_locally();
    sync_in_background();
  } else if (collecting_ % per_push_ != per_push_ - 1)
    close_locally();
  else if (inflight_ || awaiting_params_)
    pending_ = true;  // asynchronous policies: goes up once the one in flight is through
  else
    push_upstream();
}

void LocalServer::pull_upstream(std::int64_t round) {
  pull_sent_ = rt_.now();
  asked_ = true;
  rt_.send(make_message(MsgKind::kPullRequest, spec_.id, spec_.parent, round));
}

void LocalServer::on_peer_down(NodeId worker) {
  if (agg_.drop(worker)) push_when_free();
}

void LocalServer::on_peer_up(NodeId worker) { tell_round(worker); }

void LocalServer::tell_round(NodeId worker) {
  rt_.send(make_message(MsgKind::kControl, spec_.id, worker, collecting_));
}

// A restarted local server knows nothing: pull the parameters (which tell it the
// global round), then adopt its workers wherever they are.
void LocalServer::rejoin() {
  adopt_ = true;
  early_.reset();
  copies_.forget();  // the workers hold copies this process never served: their next answers start from zeros
  awaiting_whole_ = changes_;
  awaiting_params_ = true;
  if (background_) {  // the whole model comes as a change from zeros
    auto zero = std::make_shared<Payload>();
    zero->blocks = zeros_like(params_->blocks);
    params_ = global_ = zero;
  }
  pull_upstream(changes_ ? kWholeModel : upstream(collecting_));
}

void LocalServer::resync(std::int64_t server_round) {
  if (awaiting_params_) {  // the pull may have died with the old server
    pull_upstream(inflight_round_);
    return;
  }
  if (!inflight_) return;  // still collecting from workers: nothing was lost upstream
  if (inflight_round_ == server_round) {
    rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, inflight_round_, inflight_));
  } else if (inflight_round_ < server_round) {  // applied, but the ack was lost
    inflight_.reset();
    awaiting_params_ = true;
    pull_upstream(inflight_round_);
  }
}

// New global parameters (asked for, or answering our push): merge them
// (background sync), or adopt them and release the round's workers.
void LocalServer::on_model(const Message& msg) {
  if (awaiting_whole_ && !msg.payload->from_zero) return;  // meant for the process before this one
  awaiting_whole_ = false;
  if (background_) return merge_pulled(msg);
  if (!awaiting_params_) return;
  awaiting_params_ = false;
  global_ = pulled_model(msg.payload);
  params_ = global_;
  fetch_s_ = fetched_s(msg);
  // (Asynchronous policies accept pushes from behind: a server that moved
  // on is normal for them, and nothing collected is obsolete.)
  if (adopt_ || (msg.round > upstream(collecting_) && !parent().accepts(upstream(collecting_), msg.round))) {
    // Behind the global server (stalled, dropped, restarted): what was being
    // collected is obsolete. Adopt the server's round; every worker is told it
    // and pulls (those waiting for an ack treat it as the ack).
    adopt_ = false;
    agg_.take();
    oldest_ = kNoPush;
    collecting_ = msg.round * per_push_;
    to_ack_.clear();
    for (NodeId w : spec_.children) tell_round(w);
    return;
  }
  collecting_ = std::max(collecting_, msg.round * per_push_);
  ack(to_ack_, acked_round_);
  to_ack_.clear();
  if (pending_) {
    pending_ = false;
    push_upstream();
  }
}

void LocalServer::on_message(const Message& msg) {
  switch (msg.kind) {
    case MsgKind::kPush:  // from a worker
      if (!ctx_.policy->accepts(msg.round, collecting_)) {
        if (msg.round < collecting_) tell_round(msg.from);  // a round closed without it: it was stalled
        break;
      }
      oldest_ = std::min(oldest_, msg.round);
      if (agg_.add(msg.from, msg.payload)) push_when_free();
      break;
    case MsgKind::kPushAck:  // from the global server: our push is applied (under bsp: the global round is done)
      if (!inflight_ || !parent().accepts(inflight_round_, msg.round)) break;
      inflight_.reset();
      awaiting_params_ = true;
      if (!answered_) {
        pull_upstream(msg.round);
        break;
      }
      asked_ = false;  // the model follows unasked, or came ahead of this ack
      if (early_) {
        const Message model = std::move(*early_);
        early_.reset();
        on_model(model);
      }
      break;
    case MsgKind::kPullResponse:  // new global parameters: release the workers
      // The model answering our push, ahead of its ack (relayed by a scheduled
      // group, it can take another path): kept until the ack.
      if (answered_ && inflight_ && !awaiting_params_ && msg.round > inflight_round_) {
        early_ = msg;
        break;
      }
      on_model(msg);
      break;
    case MsgKind::kPullRequest:  // from a worker that does not wait for the model, or one recovering
      if (!agg_.is_live(msg.from)) agg_.readmit(msg.from);
      answer(msg.from, msg.round == kWholeModel);
      break;
    case MsgKind::kControl:  // a restarted global server asks where we are
      resync(msg.round);
      break;
    case MsgKind::kRelease:  // another DC's significant change was applied (selective barrier)
      if (!background_) break;
      need_round_ = std::max(need_round_, msg.round);
      sync_in_background();
      break;
    default: break;  // state-server traffic: for workers only
  }
}

}  // namespace geotrain
