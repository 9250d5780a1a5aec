#include "core/message.h"

namespace geotrain {

const char* to_string(MsgKind k) {
  switch (k) {
    case MsgKind::kPush: return "push";
    case MsgKind::kPushAck: return "push_ack";
    case MsgKind::kPullRequest: return "pull_request";
    case MsgKind::kPullResponse: return "pull_response";
    case MsgKind::kControl: return "control";
    case MsgKind::kRelease: return "release";
    case MsgKind::kStateReport: return "state_report";
    case MsgKind::kStateReply: return "state_reply";
  }
  return "?";
}

void accumulate(Payload& into, const Payload& p) {
  add_scaled(into.blocks, p.blocks);
  into.loss_sum += p.loss_sum;
  into.contributors += p.contributors;
}

std::uint64_t dense_wire_bytes(const ParamSet& blocks) {
  std::uint64_t n = kMessageHeaderBytes;
  for (const auto& b : blocks) n += kBlockHeaderBytes + 4ull * static_cast<std::uint64_t>(b.values.size());
  return n;
}

std::uint64_t dense_wire_bytes(const Payload* p) { return p ? dense_wire_bytes(p->blocks) : kMessageHeaderBytes; }

Message make_message(MsgKind kind, NodeId from, NodeId to, std::int64_t round, std::shared_ptr<const Payload> payload) {
  Message m;
  m.kind = kind;
  m.from = from;
  m.to = to;
  m.round = round;
  m.wire_bytes = dense_wire_bytes(payload.get());
  m.payload = std::move(payload);
  return m;
}

}  // namespace geotrain
