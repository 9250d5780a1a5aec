#include "core/payload/message.h"

#include <algorithm>

#include "core/codec/codec_registry.h"
#include "core/codec/segment.h"
#include "core/payload/wire.h"

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
    case MsgKind::kPushPart: return "push_part";
    case MsgKind::kRelayOrder: return "relay_order";
    case MsgKind::kPushOrder: return "push_order";
    case MsgKind::kModelReport: return "model_report";
    case MsgKind::kMergeReport: return "merge_report";
    case MsgKind::kReadyReport: return "ready_report";
  }
  return "?";
}

namespace {
// The block of `into` with this key; `hint` is where the last one was (both
// lists ascend, so a whole payload costs one pass).
Eigen::VectorXf& block_for(ParamSet& into, std::uint32_t key, std::size_t& hint) {
  if (hint >= into.size() || into[hint].key != key) {
    const auto it =
        std::lower_bound(into.begin(), into.end(), key, [](const ParamBlock& b, std::uint32_t k) { return b.key < k; });
    if (it == into.end() || it->key != key) throw CodecError("a block's key is not in the sum");
    hint = std::size_t(it - into.begin());
  }
  return into[hint++].values;
}
}  // namespace

void accumulate(Payload& into, const Payload& p) {
  std::size_t hint = 0;
  for (const auto& b : p.blocks) {
    Eigen::VectorXf& v = block_for(into.blocks, b.key, hint);
    if (v.size() != b.values.size()) throw CodecError("a block's length does not match the sum");
    v += b.values;
  }
  hint = 0;
  for (const auto& c : p.coded) add_decoded(c, 1.0f, block_for(into.blocks, c.key, hint));
  into.loss_sum += p.loss_sum;
  into.contributors += p.contributors;
}

Payload densify(const Payload& p) {
  Payload out;
  out.loss_sum = p.loss_sum;
  out.contributors = p.contributors;
  out.blocks = p.blocks;
  for (const auto& c : p.coded)  // one dense block per key, however many ranges of it come coded
    if (out.blocks.empty() || out.blocks.back().key != c.key || !is_segment_format(c.codec))
      out.blocks.push_back({c.key, Eigen::VectorXf::Zero(c.n), c.stands_for});
  sort_by_key(out.blocks);
  std::size_t hint = 0;
  for (const auto& c : p.coded) add_decoded(c, 1.0f, block_for(out.blocks, c.key, hint));
  return out;
}

Message make_message(MsgKind kind, NodeId from, NodeId to, std::int64_t round, std::shared_ptr<const Payload> payload) {
  Message m;
  m.kind = kind;
  m.from = from;
  m.to = to;
  m.round = round;
  m.wire_bytes = wire_size(payload.get());
  m.payload = std::move(payload);
  return m;
}

Message make_message(MsgKind kind, NodeId from, NodeId to, std::int64_t round, const Sent& sent) {
  Message m = make_message(kind, from, to, round);
  m.payload = sent.payload;
  m.wire_bytes = sent.payload ? sent.wire_bytes : m.wire_bytes;
  return m;
}

}  // namespace geotrain
