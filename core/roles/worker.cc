#include "core/roles/worker.h"

#include <algorithm>
#include <stdexcept>

#include "core/payload/merge.h"
#include "core/run/run_records.h"

namespace geotrain {

Worker::Worker(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx)
    : rt_(rt),
      spec_(spec),
      ctx_(ctx),
      // Not owned: the job's initial model outlives its roles.
      shared_model_(std::shared_ptr<const ParamSet>(), ctx.initial),
      push_codec_(ctx.push_stream(spec)),
      changes_(ctx.pulls_changes(spec)),
      answered_(ctx.policy->model_follows_ack()),
      protocol_(ctx.policy->waits_for_model()      ? Protocol::kWaits
                : ctx.policy->pushes_model_delta() ? Protocol::kStepsOnLocal
                                                   : Protocol::kStepsOnGradients) {
  if (changes_) pulled_ = model();
  order_ = (*ctx_.shards)[spec_.worker_index];
  if (ctx_.policy->pushes_model_delta()) {
    local_opt_ = make_optimizer(ctx_.optimizer);
    global_ = model();
  }
}

void Worker::start() { begin_step(); }

WorkerStats Worker::stats_at(TimeNs now) const {
  WorkerStats s = stats_;
  if (wait_ != Wait::kNone)
    s.blocked_ns += std::max<TimeNs>(0, now - blocked_since_);
  else
    s.busy_ns += std::max<TimeNs>(0, now - step_start_);
  return s;
}

nlohmann::json Worker::report(TimeNs now) const {
  const WorkerStats s = stats_at(now);
  nlohmann::json j = {{"busy_s", to_seconds(s.busy_ns)},
                      {"blocked_s", to_seconds(s.blocked_ns)},
                      {"steps", s.steps},
                      {"pushes", s.pushes},
                      {"round", round_},
                      {"push_s", push_s_},
                      {"model_s", model_s_}};
  report_stream(j, stream_name(ctx_.tier(spec_.id, spec_.parent), true), push_codec_);
  return j;
}

void Worker::wait_for(Wait w) {
  if (wait_ == Wait::kNone) blocked_since_ = rt_.now();
  wait_ = w;
}

void Worker::stop_waiting() {
  if (wait_ != Wait::kNone) stats_.blocked_ns += rt_.now() - blocked_since_;
  wait_ = Wait::kNone;
}

void Worker::rejoin() {
  early_.reset();
  wait_for(Wait::kModel);
  awaiting_whole_ = changes_;
  pull(/*whole=*/true);
}

void Worker::pull(bool whole) {
  pull_sent_ = rt_.now();
  asked_ = true;
  // The round is only for the record, except that kWholeModel asks a server
  // that sends changes for everything (a restarted process has no copy).
  rt_.send(make_message(MsgKind::kPullRequest, spec_.id, spec_.parent, whole && changes_ ? kWholeModel : round_));
}

const std::vector<int>& Worker::next_batch() {
  batch_.clear();
  const std::size_t want = std::min<std::size_t>(ctx_.batch_size, order_.size());
  while (batch_.size() < want) {
    if (cursor_ == 0 && !ctx_.caps.stream) std::shuffle(order_.begin(), order_.end(), rt_.rng());  // new epoch
    batch_.push_back(order_[cursor_]);
    cursor_ = (cursor_ + 1) % order_.size();
  }
  return batch_;
}

void Worker::begin_step() {
  step_start_ = rt_.now();
  if (ctx_.policy->uses_state_server() && local_done_ == 0) report_state();  // a local round begins
  const int samples = step_samples();
  const ComputeCost cost{ctx_.learner->train_flops_per_sample() * samples, samples};
  rt_.compute(
      cost, [this] { compute_update(); }, [this] { finish_step(); });
}

void Worker::compute_update() {
  if (unapplied_) {  // the last local step, as finish_step() would have applied it
    apply_local_step(*unapplied_);
    unapplied_.reset();
  }
  update_ = std::make_shared<Payload>();
  update_->loss_sum = ctx_.learner->local_update(model(), *ctx_.train, next_batch(), rt_.rng(), &update_->blocks);
  update_->contributors = 1;
  // The optimiser's maths here, on the compute thread; finish_step() or the next step subtracts the step, once
  // nothing can read the model without it (Optimizer::prepare).
  if (local_opt_ && local_opt_->prepares_steps()) local_opt_->prepare(update_->blocks);
  for (std::size_t i = 1; i < update_->blocks.size(); ++i)  // the wire's order: caught here in simulation too
    if (update_->blocks[i].key <= update_->blocks[i - 1].key)
      throw std::logic_error(ctx_.learner->name() + "'s update has its blocks out of key order");
}

void Worker::apply_local_step(const Payload& update) {
  if (local_opt_->prepares_steps())
    local_opt_->apply_prepared(own_model());  // compute_update() prepared it
  else
    local_opt_->apply(own_model(), update.blocks);
}

ParamSet& Worker::own_model() {
  if (shared_model_) {
    params_ = *shared_model_;
    shared_model_.reset();
  }
  return params_;
}

int Worker::step_samples() const {
  return int(std::min<std::size_t>(ctx_.batch_size, order_.size()));  // a batch is at most the shard
}

void Worker::finish_step() {
  stats_.busy_ns += rt_.now() - step_start_;
  last_step_s_ = to_seconds(rt_.now() - step_start_);
  ++stats_.steps;
  if (ctx_.records) ctx_.records->count_samples(rt_.now(), step_samples());
  if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kStepDone, round_);
  if (local_opt_) {  // a local step: apply it; push the model's change when the round ends
    local_loss_ += update_->loss_sum;
    ++local_done_;
    const bool steps_on = ready_ ? push_in_flight_
                                 : !ctx_.policy->uses_state_server() &&
                                       local_done_ < ctx_.policy->local_steps(order_.size(), ctx_.batch_size);
    if (steps_on) {  // nothing reads the model before the next step's maths: apply it there (off the event loop)
      unapplied_ = std::move(update_);
      return begin_step();
    }
    apply_local_step(*update_);
    if (ready_) return end_local_round();
    if (ctx_.policy->uses_state_server()) {  // its answer ends the round or asks for one more step
      wait_for(Wait::kStateServer);
      return report_state();
    }
    return end_local_round();
  }
  if (protocol_ == Protocol::kStepsOnGradients) {  // push and step on; a newer model is installed when it comes
    if (backlog_)  // the last push is not acknowledged yet: add to the next one instead of queueing
      merge(*backlog_, *update_, ctx_.rules);
    else
      backlog_ = std::move(update_);
    if (!push_in_flight_) send_backlog();
    if (ctx_.policy->may_step(stats_.steps, slowest_)) return begin_step();
    return wait_for(Wait::kRelease);  // too far ahead of the slowest worker
  }
  push_and_wait(std::move(update_));
}

void Worker::end_local_round(double slack_s) {
  const bool waits = protocol_ == Protocol::kWaits;
  if (!waits && push_in_flight_) {  // the previous round's model is not merged yet: step on, push after it
    ready_ = true;
    return begin_step();
  }
  ready_ = false;
  auto change = std::make_shared<Payload>();
  change->blocks = model();
  if (!ctx_.policy->mixes_models()) add_scaled(change->blocks, global_, -1.0f);
  change->loss_sum = local_loss_ / local_done_;
  change->contributors = 1;
  if (ctx_.policy->weights_by_samples()) {  // counted once per sample it holds: the servers' mean is weighted
    const int n = int(order_.size());
    scale(change->blocks, float(n));
    change->loss_sum *= n;
    change->contributors = n;
  }
  local_done_ = 0;
  local_loss_ = 0;
  if (waits) return push_and_wait(std::move(change));
  snapshot_ = model();  // progress from here on is merged onto the next global model
  push_in_flight_ = true;
  pushed_ = send_push(std::move(change));  // kept until merged, in case a restarted server asks for it again
  pushed_at_ = rt_.now();
  push_slack_s_ = slack_s;
  if (last_sync_s_ < ctx_.policy->min_sync_to_step_on_s()) {  // the model is due soon: step on it, not before it
    return wait_for(Wait::kMerge);
  }
  begin_step();
}

void Worker::push_and_wait(std::shared_ptr<const Payload> update) {
  wait_for(Wait::kAck);
  pushed_ = send_push(std::move(update));
}

void Worker::send_backlog() {
  push_in_flight_ = true;
  send_push(std::move(backlog_));
}

std::shared_ptr<const Payload> Worker::send_push(std::shared_ptr<const Payload> update) {
  ++stats_.pushes;
  if (models_ == pushes_) {  // the first push of a round
    ++pushes_;
    round_push_s_ = to_seconds(rt_.now());
    if (!ctx_.records) push_s_.push_back(round_push_s_);
  }
  if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kWorkerPushed, round_);
  const Sent sent = push_codec_.encode(std::move(update), rt_.now());
  rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, round_, sent));
  return sent.payload;
}

void Worker::report_state() {
  Message m = make_message(MsgKind::kStateReport, spec_.id, ctx_.state_server, local_done_);
  m.step_s = last_step_s_;
  m.transfer_s = transfer_s_;
  rt_.send(std::move(m));
}

void Worker::install(const Message& response) {
  // How long the model took to come (asked for: since the request), plus the parent's own fetch.
  transfer_s_ =
      (asked_ ? to_seconds(rt_.now() - pull_sent_) : to_seconds(rt_.now()) - response.sent_s) + response.transfer_s;
  if (models_ < pushes_) {  // the model that followed this round's push
    ++models_;
    if (ctx_.records)
      ctx_.records->spans().add(models_ - 1, round_push_s_, to_seconds(rt_.now()));
    else
      model_s_.push_back(to_seconds(rt_.now()));
  }
  if (changes_) apply_served(pulled_, *response.payload);
  const ParamSet& w = changes_ ? pulled_ : response.payload->blocks;
  if (protocol_ == Protocol::kStepsOnLocal && pulling_ &&
      wait_ != Wait::kMerge) {  // stepped on since the push: w = w_g + (w - w_snap)
    add_scaled(own_model(), w, 1.0f);
    add_scaled(params_, snapshot_, -1.0f);
  } else if (changes_) {  // pulled_ changes with the next response: a copy
    shared_model_.reset();
    params_ = w;
  } else {  // share the response's blocks rather than copy them (payloads are immutable once sent)
    shared_model_ = std::shared_ptr<const ParamSet>(response.payload, &response.payload->blocks);
    params_ = ParamSet();
  }
  if (local_opt_) global_ = w;
  round_ = response.round;
}

void Worker::take_early_model() {
  if (!early_) return;
  const Message model = std::move(*early_);
  early_.reset();
  on_message(model);
}

void Worker::on_message(const Message& msg) {
  switch (msg.kind) {
    case MsgKind::kPushAck:
      if (protocol_ != Protocol::kWaits) {               // the server has a newer model: fetch it, once at a time
        if (protocol_ == Protocol::kStepsOnGradients) {  // the next push may go now
          push_in_flight_ = false;
          if (backlog_) send_backlog();
        }
        if (answered_) {  // it follows unasked (or came ahead of this ack)
          asked_ = false;
          pulling_ = true;
          take_early_model();
          break;
        }
        if (!pulling_) pull();
        pulling_ = true;
        break;
      }
      // Ours: for the round pushed in (or, where the policy accepts pushes from
      // behind, the later round the server applied it in).
      if (wait_ != Wait::kAck || !ctx_.policy->accepts(round_, msg.round)) break;
      wait_for(Wait::kModel);
      pushed_.reset();
      if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kWorkerAcked, msg.round);
      if (!answered_) {
        pull();
        break;
      }
      asked_ = false;  // the model follows unasked, or came ahead of this ack
      take_early_model();
      break;
    case MsgKind::kPullResponse:
      // The model answering our push, ahead of its ack (relayed by a scheduled
      // group, it can take another path): kept until the ack.
      if (answered_ &&
          (wait_ == Wait::kAck || (protocol_ == Protocol::kStepsOnLocal && push_in_flight_ && !pulling_)) &&
          msg.round > round_) {
        early_ = msg;
        break;
      }
      if (awaiting_whole_ && !msg.payload->from_zero) break;  // meant for the process before this one
      awaiting_whole_ = false;
      if (pulling_) {  // not waiting: install it for the next step
        install(msg);
        pulling_ = false;
        if (protocol_ == Protocol::kStepsOnLocal) {  // merged: the next local round may push
          push_in_flight_ = false;
          pushed_.reset();
          // What of the wait was sync, not the slowest worker's compute. Only
          // a push made when told has a slack to subtract: one held back
          // behind the previous round went later, into a later round.
          if (push_slack_s_ >= 0) last_sync_s_ = to_seconds(rt_.now() - pushed_at_) - push_slack_s_;
          if (wait_ == Wait::kMerge) {
            stop_waiting();
            begin_step();
          }
        }
        break;
      }
      if (wait_ != Wait::kModel) break;
      install(msg);
      stop_waiting();
      begin_step();
      break;
    case MsgKind::kStateReply:  // the state server's answer: push now (1) or one more step (0)
      if (wait_ != Wait::kStateServer) break;
      stop_waiting();
      if (msg.round == 1)
        end_local_round(msg.step_s);  // with its slack, for the push's sync time
      else
        begin_step();
      break;
    case MsgKind::kRelease:  // the slowest worker's clock advanced
      slowest_ = std::max(slowest_, msg.round);
      if (wait_ == Wait::kRelease && ctx_.policy->may_step(stats_.steps, slowest_)) {
        stop_waiting();
        begin_step();
      }
      break;
    case MsgKind::kControl:  // a restarted server, or one that closed a round without us, is at round msg.round
      if (protocol_ == Protocol::kStepsOnLocal && push_in_flight_) {  // stepping on (nbsync)
        if (msg.round == round_ && pushed_)
          rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, round_, pushed_));
        else if (msg.round > round_ && !pulling_) {  // applied, or closed without it: fetch the model
          pulling_ = true;
          pull();
        }
        break;
      }
      if (wait_ == Wait::kModel) {  // the pull may have died with the old server
        pull();
        break;
      }
      if (wait_ != Wait::kAck) break;
      if (msg.round == round_) {
        rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, round_, pushed_));
      } else if (msg.round > round_) {  // applied; the ack was lost
        early_.reset();
        wait_for(Wait::kModel);
        pushed_.reset();
        pull();
      }
      break;
    default: break;
  }
}

}  // namespace geotrain
