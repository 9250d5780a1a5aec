#include "core/roles/global_server.h"

#include "core/monitor.h"

namespace geotrain {

GlobalServer::GlobalServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx)
    : rt_(rt),
      spec_(spec),
      ctx_(ctx),
      agg_(int(spec.children.size())),
      opt_(make_optimizer(ctx.optimizer)),
      params_(*ctx.initial) {
  auto p = std::make_shared<Payload>();
  p->blocks = params_;
  current_ = std::move(p);
}

void GlobalServer::on_message(const Message& msg) {
  if (stopped_) return;
  switch (msg.kind) {
    case MsgKind::kPush:
      if (agg_.add(*msg.payload)) apply_round();
      break;
    case MsgKind::kPullRequest:
      rt_.send(make_message(MsgKind::kPullResponse, spec_.id, msg.from, msg.round, current_));
      break;
    default: break;
  }
}

void GlobalServer::apply_round() {
  std::shared_ptr<Payload> sum = agg_.take();
  const int n = std::max(1, sum->contributors);
  scale(sum->blocks, 1.0f / float(n));  // mean of the worker gradients
  opt_->apply(params_, sum->blocks);
  last_loss_ = sum->loss_sum / n;
  auto p = std::make_shared<Payload>();
  p->blocks = params_;
  current_ = std::move(p);
  const std::int64_t round = rounds_++;
  if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kGlobalApplied, round);
  if (ctx_.monitor && ctx_.monitor->on_round(rt_.now(), rounds_, params_, last_loss_)) {
    stopped_ = true;
    rt_.stop();
    return;
  }
  for (NodeId c : spec_.children) rt_.send(make_message(MsgKind::kPushAck, spec_.id, c, round));
}

}  // namespace geotrain
