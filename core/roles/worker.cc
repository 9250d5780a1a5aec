#include "core/roles/worker.h"

#include <algorithm>

namespace geotrain {

Worker::Worker(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx)
    : rt_(rt), spec_(spec), ctx_(ctx), params_(*ctx.initial) {
  order_ = (*ctx_.shards)[spec_.worker_index];
  if (ctx_.policy->pushes_model_delta()) {
    local_opt_ = make_optimizer(ctx_.optimizer);
    global_ = params_;
  }
}

void Worker::start() { begin_step(); }

WorkerStats Worker::stats_at(TimeNs now) const {
  WorkerStats s = stats_;
  if (waiting_ack_ || waiting_params_ || held_)
    s.blocked_ns += std::max<TimeNs>(0, now - push_time_);
  else
    s.busy_ns += std::max<TimeNs>(0, now - step_start_);
  return s;
}

nlohmann::json Worker::report(TimeNs now) const {
  const WorkerStats s = stats_at(now);
  return {{"busy_s", to_seconds(s.busy_ns)},
          {"blocked_s", to_seconds(s.blocked_ns)},
          {"steps", s.steps},
          {"pushes", s.pushes},
          {"round", round_}};
}

void Worker::rejoin() {
  push_time_ = rt_.now();
  waiting_params_ = true;
  rt_.send(make_message(MsgKind::kPullRequest, spec_.id, spec_.parent, round_));
}

const std::vector<int>& Worker::next_batch() {
  batch_.clear();
  const std::size_t want = std::min<std::size_t>(ctx_.batch_size, order_.size());
  while (batch_.size() < want) {
    if (cursor_ == 0) std::shuffle(order_.begin(), order_.end(), rt_.rng());  // new epoch
    batch_.push_back(order_[cursor_]);
    cursor_ = (cursor_ + 1) % order_.size();
  }
  return batch_;
}

void Worker::begin_step() {
  step_start_ = rt_.now();
  const ComputeCost cost{ctx_.model->train_flops_per_sample() * ctx_.batch_size, ctx_.batch_size};
  rt_.compute(
      cost, [this] { compute_update(); }, [this] { finish_step(); });
}

void Worker::compute_update() {
  Eigen::MatrixXf x;
  std::vector<int> y;
  gather(*ctx_.train, next_batch(), &x, &y);
  update_ = std::make_shared<Payload>();
  update_->loss_sum = ctx_.model->loss_and_gradient(params_, x, y, &update_->blocks);
  update_->contributors = 1;
}

void Worker::finish_step() {
  stats_.busy_ns += rt_.now() - step_start_;
  ++stats_.steps;
  if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kStepDone, round_);
  if (local_opt_) {  // a local step: apply it; after the policy's count, push the model's change
    local_opt_->apply(params_, update_->blocks);
    local_loss_ += update_->loss_sum;
    if (++local_done_ < ctx_.policy->local_steps()) return begin_step();
    auto change = std::make_shared<Payload>();
    change->blocks = params_;
    add_scaled(change->blocks, global_, -1.0f);
    change->loss_sum = local_loss_ / local_done_;
    change->contributors = 1;
    update_ = std::move(change);
    local_done_ = 0;
    local_loss_ = 0;
  }
  push_time_ = rt_.now();
  if (!ctx_.policy->waits_for_model()) {  // push and step on; a newer model is installed when it comes
    if (backlog_)  // the last push is not acknowledged yet: add to the next one instead of queueing
      accumulate(*backlog_, *update_);
    else
      backlog_ = std::move(update_);
    if (!push_in_flight_) send_backlog();
    if (ctx_.policy->may_step(stats_.steps, slowest_))
      begin_step();
    else
      held_ = true;  // too far ahead of the slowest worker: wait for a kRelease
    return;
  }
  pushed_ = std::move(update_);
  waiting_ack_ = true;
  ++stats_.pushes;
  rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, round_, pushed_));
}

void Worker::send_backlog() {
  push_in_flight_ = true;
  ++stats_.pushes;
  rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, round_, std::move(backlog_)));
}

void Worker::on_message(const Message& msg) {
  switch (msg.kind) {
    case MsgKind::kPushAck:
      if (!ctx_.policy->waits_for_model()) {  // the server has a newer model: fetch it, once at a time
        push_in_flight_ = false;
        if (backlog_) send_backlog();
        if (!pulling_) rt_.send(make_message(MsgKind::kPullRequest, spec_.id, spec_.parent, round_));
        pulling_ = true;
        break;
      }
      if (msg.round != round_ || !waiting_ack_) break;
      waiting_ack_ = false;
      waiting_params_ = true;
      pushed_.reset();
      if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kWorkerAcked, msg.round);
      rt_.send(make_message(MsgKind::kPullRequest, spec_.id, spec_.parent, round_));
      break;
    case MsgKind::kPullResponse:
      if (pulling_) {  // not waiting: install it for the next step
        pulling_ = false;
        params_ = msg.payload->blocks;
        round_ = msg.round;
        break;
      }
      if (!waiting_params_) break;
      waiting_params_ = false;
      params_ = msg.payload->blocks;
      if (local_opt_) global_ = params_;
      stats_.blocked_ns += rt_.now() - push_time_;
      round_ = msg.round;  // the round the server collects next
      begin_step();
      break;
    case MsgKind::kRelease:  // the slowest worker's clock advanced
      slowest_ = std::max(slowest_, msg.round);
      if (held_ && ctx_.policy->may_step(stats_.steps, slowest_)) {
        held_ = false;
        stats_.blocked_ns += rt_.now() - push_time_;
        begin_step();
      }
      break;
    case MsgKind::kControl:   // restarted server at round msg.round
      if (waiting_params_) {  // the pull may have died with the old server
        rt_.send(make_message(MsgKind::kPullRequest, spec_.id, spec_.parent, round_));
        break;
      }
      if (!waiting_ack_) break;
      if (msg.round == round_) {
        rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, round_, pushed_));
      } else if (msg.round > round_) {  // applied; the ack was lost
        waiting_ack_ = false;
        waiting_params_ = true;
        pushed_.reset();
        rt_.send(make_message(MsgKind::kPullRequest, spec_.id, spec_.parent, round_));
      }
      break;
    default: break;
  }
}

}  // namespace geotrain
