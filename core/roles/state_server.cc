#include "core/roles/state_server.h"

namespace geotrain {

StateServer::StateServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx) : rt_(rt), spec_(spec), ctx_(ctx) {}

void StateServer::on_message(const Message& msg) {
  if (msg.kind != MsgKind::kStateReport) return;
  ++reports_;
  WorkerState& w = workers_[msg.from];
  w.k = msg.round;
  if (msg.step_s > 0) w.step_s = msg.step_s;
  w.transfer_s = msg.transfer_s;
  w.reported_at = rt_.now();
  w.between_rounds = false;
  if (w.k < 1) return;  // before a round's first step: the answer is always "step", so none is sent
  const PushAdvice advice = ctx_.policy->push_now(workers_, msg.from, rt_.now());
  const bool push = advice.push;
  if (push) {
    ++w.pushes_told;
    w.between_rounds = true;
    ++push_now_;
  }
  Message reply = make_message(MsgKind::kStateReply, spec_.id, msg.from, push ? 1 : 0);
  reply.step_s = advice.slack_s;
  reply.priority = 1;  // ahead of anything bulky queued to the same worker
  rt_.send(std::move(reply));
}

nlohmann::json StateServer::report(TimeNs) const { return {{"reports", reports_}, {"push_now", push_now_}}; }

}  // namespace geotrain
