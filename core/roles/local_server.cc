#include "core/roles/local_server.h"

namespace geotrain {

LocalServer::LocalServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx)
    : rt_(rt), spec_(spec), ctx_(ctx), agg_(int(spec.children.size())) {}

void LocalServer::on_message(const Message& msg) {
  switch (msg.kind) {
    case MsgKind::kPush:  // from a worker
      round_ = msg.round;
      if (agg_.add(*msg.payload)) {
        if (ctx_.tracer) ctx_.tracer->record(rt_.now(), spec_.id, TraceKind::kLocalPushed, round_);
        rt_.send(make_message(MsgKind::kPush, spec_.id, spec_.parent, round_, agg_.take()));
      }
      break;
    case MsgKind::kPushAck:  // from the global server: the global round is done
      rt_.send(make_message(MsgKind::kPullRequest, spec_.id, spec_.parent, msg.round));
      break;
    case MsgKind::kPullResponse:  // new global parameters: release the workers
      params_ = msg.payload;
      for (NodeId w : spec_.children) rt_.send(make_message(MsgKind::kPushAck, spec_.id, w, round_));
      break;
    case MsgKind::kPullRequest:  // from a worker, after its ack
      rt_.send(make_message(MsgKind::kPullResponse, spec_.id, msg.from, msg.round, params_));
      break;
    default: break;
  }
}

}  // namespace geotrain
