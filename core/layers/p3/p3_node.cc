#include "core/layers/p3/p3_node.h"

#include <algorithm>
#include <stdexcept>

#include "core/codec/segment.h"

namespace geotrain {
namespace {

bool sliceable(const Message& m) {
  return (m.kind == MsgKind::kPush || m.kind == MsgKind::kPullResponse) && m.payload && m.payload->coded.empty() &&
         m.parts == 0;
}

constexpr std::size_t kMaxPending = 256;  // messages being reassembled at once; older ones are dropped

}  // namespace

P3Node::P3Node(Runtime& rt, const P3Spec& spec, const ParamSet& model) : LayerNode(rt), spec_(spec) {
  double total = 0;
  for (const auto& b : model) total += double(b.values.size());
  for (std::size_t i = 0; i < model.size(); ++i) {
    index_[model[i].key] = i;
    layer_order_.push_back({i, model[i].key});
    share_[model[i].key] = total > 0 ? double(model[i].values.size()) / total : 0;
  }
}

void P3Node::send(Message msg) {
  if (!sliceable(msg)) return rt_.send(std::move(msg));
  const std::uint64_t per = spec_.slice_elements;
  std::uint64_t parts = 0;
  for (const auto& b : msg.payload->blocks) parts += (std::uint64_t(b.values.size()) + per - 1) / per;
  if (parts <= 1) return rt_.send(std::move(msg));
  if (parts > 0xFFFF)
    throw std::runtime_error("P3: a message of " + std::to_string(parts) +
                             " slices exceeds 65535; raise p3.slice_elements");
  const std::uint32_t seq = ++seq_;
  std::uint16_t part = 0;
  for (const auto& b : msg.payload->blocks) {
    const std::uint32_t n = std::uint32_t(b.values.size());
    for (std::uint32_t off = 0; off < n; off += std::uint32_t(per)) {
      auto p = std::make_shared<Payload>();
      p->coded.push_back(
          encode_segment(b.key, n, off, b.values.data() + off, std::min<std::uint32_t>(std::uint32_t(per), n - off)));
      if (part == 0) {  // the message's own fields ride on the first slice
        p->loss_sum = msg.payload->loss_sum;
        p->contributors = msg.payload->contributors;
        p->from_zero = msg.payload->from_zero;
      }
      Message m = make_message(msg.kind, msg.from, msg.to, msg.round, std::move(p));
      m.step_s = msg.step_s;
      m.transfer_s = msg.transfer_s;
      m.channel = msg.channel;
      m.seq = seq;
      m.part = part++;
      m.parts = std::uint16_t(parts);
      m.priority = -int(index_.count(b.key) ? index_.at(b.key) : index_.size());  // first layers first
      ++parts_sent_;
      rt_.send(std::move(m));
    }
  }
  ++sliced_;
}

void P3Node::on_message(const Message& msg) {
  if ((msg.kind == MsgKind::kPush || msg.kind == MsgKind::kPullResponse) && msg.parts > 0) return receive_part(msg);
  role_->on_message(msg);
}

void P3Node::receive_part(const Message& msg) {
  const bool one_slice = msg.payload && msg.payload->blocks.empty() && msg.payload->coded.size() == 1 &&
                         msg.payload->coded[0].codec == kSegmentCodecId;
  if (!one_slice || !index_.count(msg.payload->coded[0].key)) {
    ++rejected_;
    return;
  }
  const auto id = std::make_pair(msg.from, msg.seq);
  auto it = pending_.find(id);
  if (it == pending_.end()) {
    if (pending_.size() >= kMaxPending) {
      ++rejected_;
      pending_.erase(pending_.begin());
    }
    it = pending_.emplace(id, Pending{}).first;
    it->second.got.assign(msg.parts, false);
  }
  Pending& p = it->second;
  if (p.got.size() != msg.parts || p.got[msg.part]) {  // a count that changed, or a duplicate
    ++rejected_;
    return;
  }
  p.got[msg.part] = true;
  ++p.received;
  const CodedBlock& slice = msg.payload->coded[0];
  p.arrived[slice.key] = rt_.now();
  p.slices.push_back(slice);
  if (msg.part == 0) p.first = msg;
  if (p.received < p.got.size()) return;
  Payload whole;
  whole.coded = std::move(p.slices);
  sort_by_key(whole.coded);
  auto out_payload = std::make_shared<Payload>(densify(whole));
  out_payload->loss_sum = p.first.payload->loss_sum;
  out_payload->contributors = p.first.payload->contributors;
  out_payload->from_zero = p.first.payload->from_zero;
  Message out = p.first;
  out.payload = std::move(out_payload);
  out.seq = 0;
  out.part = out.parts = 0;
  // First layers first: every tensor complete no later than the next one.
  TimeNs last = 0;
  bool in_order = true;
  for (const auto& [i, key] : layer_order_) {
    const auto a = p.arrived.find(key);
    if (a == p.arrived.end()) continue;
    in_order = in_order && a->second >= last;
    last = a->second;
  }
  in_order_ += in_order;
  // A step the role starts on this model (within this call) overlaps its arrival.
  fresh_model_ = out.kind == MsgKind::kPullResponse;
  if (fresh_model_) model_arrived_ = std::move(p.arrived);
  pending_.erase(it);
  ++assembled_;
  role_->on_message(out);
  fresh_model_ = false;
}

double P3Node::overlap_s(const std::map<std::uint32_t, TimeNs>& arrived, TimeNs now) const {
  const double t_now = to_seconds(now);
  double end = -1e300, forward = 0;
  for (const auto& [i, key] : layer_order_) {
    const double f = spec_.forward_fraction * step_s_ * share_.at(key);
    const auto a = arrived.find(key);
    end = std::max(end, a == arrived.end() ? t_now : to_seconds(a->second)) + f;
    forward += f;
  }
  return std::max(0.0, t_now + forward - end);
}

void P3Node::compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) {
  double scale = 1;
  if (fresh_model_ && step_s_ > 0) {
    const double saved = std::min(overlap_s(model_arrived_, rt_.now()), step_s_);
    scale = 1 - saved / step_s_;
    if (saved > 0) {
      ++early_steps_;
      saved_s_ += saved;
    }
  }
  fresh_model_ = false;
  ComputeCost c = cost;
  c.flops *= scale;
  c.samples = int(std::llround(double(cost.samples) * scale));
  const TimeNs start = rt_.now();
  rt_.compute(c, std::move(work), [this, start, scale, done = std::move(done)] {
    if (scale > 0) step_s_ = to_seconds(rt_.now() - start) / scale;  // the step as if not shortened
    done();
  });
}

nlohmann::json P3Node::report(TimeNs now) const {
  nlohmann::json j = role_->report(now);
  j["p3"] = {{"messages_sliced", sliced_},  {"parts_sent", parts_sent_},   {"assembled", assembled_},
             {"in_layer_order", in_order_}, {"early_steps", early_steps_}, {"saved_s", saved_s_},
             {"rejected", rejected_}};
  return j;
}

StackNeeds p3_stack_needs() {
  StackNeeds n;
  n.cuts_pushes = true;
  return n;
}

}  // namespace geotrain
