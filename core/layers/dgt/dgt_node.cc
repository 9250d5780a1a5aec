#include "core/layers/dgt/dgt_node.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/codec/codec_registry.h"
#include "core/codec/segment.h"
#include "core/payload/wire.h"

namespace geotrain {

namespace {
// Parts' priorities: 0 for the reliable ones, -c for best-effort channel c (a hostile priority
// cannot overflow the negation: the caller clamps to the channels there are).
int channel_of(const Message& m) { return m.part < 2 || m.priority >= 0 ? 0 : m.priority < -1000 ? 1000 : -m.priority; }
}  // namespace

DgtNode::DgtNode(Runtime& rt, const DgtSpec& spec, std::vector<int> dc_of, const Topology& topology,
                 const ParamSet& model)
    : LayerNode(rt),
      spec_(spec),
      dc_of_(std::move(dc_of)),
      topology_(topology),
      sent_(std::size_t(spec.channels) + 1, 0),
      on_time_(std::size_t(spec.channels) + 1, 0),
      late_(std::size_t(spec.channels) + 1, 0) {
  for (const auto& b : model)
    tensor_size_[b.key] = std::max<std::size_t>(std::size_t(b.values.size()), std::size_t(wire_elements(b)));
}

bool DgtNode::across_wan(NodeId a, NodeId b) const {
  const auto in = [this](NodeId n) { return n >= 0 && std::size_t(n) < dc_of_.size(); };
  return in(a) && in(b) && dc_of_[std::size_t(a)] != dc_of_[std::size_t(b)];
}

void DgtNode::send(Message msg) {
  if (msg.kind != MsgKind::kPush || !msg.payload || !across_wan(msg.from, msg.to)) return rt_.send(std::move(msg));
  send_in_parts(std::move(msg));
}

double DgtNode::next_k(const Payload& p) {
  if (!spec_.adaptive || p.contributors <= 0) return spec_.k;
  const double loss = p.loss_sum / p.contributors;
  if (!(loss > 0) || !std::isfinite(loss)) return spec_.k;
  if (loss0_ == 0) loss0_ = loss;
  return std::clamp(std::max(spec_.k * loss / loss0_, spec_.k_min), spec_.k_min, 1.0);
}

void DgtNode::send_in_parts(Message msg) {
  const Payload& p = *msg.payload;
  const double k = next_k(p);
  k_history_.emplace_back(to_seconds(rt_.now()), k);
  const std::uint32_t per_block = std::uint32_t(spec_.block_bytes / 4);
  const float alpha = float(spec_.alpha);

  auto marker = std::make_shared<Payload>();
  marker->loss_sum = p.loss_sum;
  marker->contributors = p.contributors;
  marker->from_zero = p.from_zero;
  marker->coded = p.coded;  // a codec's blocks go whole, reliably
  struct Candidate {
    float c;
    std::uint32_t key, block;
    const ParamBlock* tensor;
  };
  std::vector<Candidate> candidates;
  for (const ParamBlock& t : p.blocks) {
    const std::uint32_t n = std::uint32_t(t.values.size());
    if (n == 0) continue;
    const std::uint32_t blocks = (n + per_block - 1) / per_block;
    Eigen::VectorXf& c = contribution_[t.key];
    if (c.size() != Eigen::Index(blocks)) c = Eigen::VectorXf::Zero(blocks);
    for (std::uint32_t j = 0; j < blocks; ++j) {
      const std::uint32_t lo = j * per_block, len = std::min(per_block, n - lo);
      const float mean_abs = t.values.segment(lo, len).cwiseAbs().mean();
      c[j] = alpha * c[j] + (1 - alpha) * mean_abs;
      if (j + 1 == blocks) {
        marker->coded.push_back(encode_segment(t.key, n, lo, t.values.data() + lo, len));
      } else if (mean_abs == 0) {
        ++zero_blocks_;
      } else {
        candidates.push_back({c[j], t.key, j, &t});
      }
    }
  }
  sort_by_key(marker->coded);
  // Most important first; ties in key and block order, so every run sends the same.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.c > b.c; });
  const std::size_t important = std::min(candidates.size(), std::size_t(std::llround(k * double(candidates.size()))));
  const std::size_t rest = candidates.size() - important;
  const std::size_t parts = 2 + rest;
  if (parts > 0xFFFF)
    throw std::runtime_error("DGT: a push of " + std::to_string(parts) + " parts exceeds 65535; raise dgt.block_bytes");
  const std::uint32_t seq = ++seq_;
  const auto part_message = [&](std::uint16_t part, std::shared_ptr<const Payload> payload, Channel ch, int prio) {
    Message m = make_message(MsgKind::kPushPart, msg.from, msg.to, msg.round, std::move(payload));
    m.seq = seq;
    m.part = part;
    m.parts = std::uint16_t(parts);
    m.channel = ch;
    m.priority = prio;
    return m;
  };
  const auto segment = [&](const Candidate& b) {
    const std::uint32_t n = std::uint32_t(b.tensor->values.size()), lo = b.block * per_block;
    return encode_segment(b.key, n, lo, b.tensor->values.data() + lo, std::min(per_block, n - lo));
  };
  // Part 1, the important blocks; then part 0, the marker, behind it on the same stream.
  auto first = std::make_shared<Payload>();
  for (std::size_t i = 0; i < important; ++i) first->coded.push_back(segment(candidates[i]));
  sort_by_key(first->coded);
  sent_[0] += important + marker->coded.size() - p.coded.size();
  Message important_part = part_message(1, std::move(first), Channel::kReliable, 0);
  Message marker_part = part_message(0, std::move(marker), Channel::kReliable, 0);
  // Strict priority: best-effort blocks start once the reliable ones have had the path's time to leave.
  if (spec_.mode == 1)
    hold_until_ =
        rt_.now() + TimeNs(double(important_part.wire_bytes + marker_part.wire_bytes) * 8.0 / rate_bps(msg.to) * 1e9);
  rt_.send(std::move(important_part));
  rt_.send(std::move(marker_part));
  // The rest, one block a part, spread by rank over the C channels.
  if (spec_.mode == 1) {  // what the last push has not sent yet would arrive late: drop it
    unsent_ += pacing_.size() - paced_;
    pacing_.clear();
    paced_ = 0;
  }
  for (std::size_t r = 0; r < rest; ++r) {
    const Candidate& b = candidates[important + r];
    const int channel = 1 + int(r * std::size_t(spec_.channels) / std::max<std::size_t>(1, rest));
    auto one = std::make_shared<Payload>();
    if (spec_.mode == 3) {
      const std::uint32_t n = std::uint32_t(b.tensor->values.size()), lo = b.block * per_block;
      Eigen::VectorXf& res = residual_[b.key];
      if (res.size() != Eigen::Index(n)) res = Eigen::VectorXf::Zero(n);
      one->coded.push_back(
          encode_segment4(b.key, n, lo, b.tensor->values.data() + lo, std::min(per_block, n - lo), res.data() + lo));
    } else {
      one->coded.push_back(segment(b));
    }
    if (spec_.mode != 1) ++sent_[std::size_t(channel)];  // mode 1 counts as it paces
    Message m = part_message(std::uint16_t(2 + r), std::move(one),
                             spec_.mode == 1 ? Channel::kBestEffort : Channel::kReliable, -channel);
    if (spec_.mode == 1)
      pacing_.push_back(std::move(m));
    else
      rt_.send(std::move(m));
  }
  if (spec_.mode == 1) pace();
}

double DgtNode::rate_bps(NodeId to) {
  double& r = rate_bps_[to];
  if (r == 0) {
    const LinkSpec path = wan_path(topology_, dc_of_.at(std::size_t(rt_.self())), dc_of_.at(std::size_t(to)));
    r = std::max(1e3, spec_.rate_fraction * path.bandwidth_mbps * 1e6);
  }
  return r;
}

void DgtNode::arm_pacer(TimeNs delay) {
  pacer_armed_ = true;
  rt_.schedule(std::max<TimeNs>(1, delay), [this] {
    pacer_armed_ = false;
    pace();
  });
}

void DgtNode::pace() {
  if (pacer_armed_ || paced_ >= pacing_.size()) return;
  if (rt_.now() < hold_until_) return arm_pacer(hold_until_ - rt_.now());  // important blocks still leaving
  Message m = std::move(pacing_[paced_++]);
  ++sent_[std::size_t(-m.priority)];
  const TimeNs gap = TimeNs(double(m.wire_bytes) * 8.0 / rate_bps(m.to) * 1e9);
  rt_.send(std::move(m));
  arm_pacer(gap);
}

void DgtNode::on_message(const Message& msg) {
  if (msg.kind == MsgKind::kPushPart)
    receive_part(msg);
  else
    role_->on_message(msg);
}

void DgtNode::receive_part(const Message& msg) {
  if (!msg.payload || msg.parts < 2 || msg.part >= msg.parts) {  // not a DGT part: dropped
    ++rejected_;
    return;
  }
  const std::size_t channel = std::min<std::size_t>(std::size_t(std::max(0, channel_of(msg))), on_time_.size() - 1);
  const std::uint64_t blocks =
      msg.part == 0 ? std::uint64_t(std::count_if(msg.payload->coded.begin(), msg.payload->coded.end(),
                                                  [](const CodedBlock& c) { return is_segment_format(c.codec); }))
                    : msg.payload->coded.size();
  FromSender& s = from_[msg.from];
  if (msg.seq <= s.assembled) {  // its push is through: the next one carries it
    if (s.late.size() >= kMaxLate) {
      ++rejected_;
      return;
    }
    late_[channel] += blocks;
    s.late.push_back(msg.payload);
    return;
  }
  if (!s.pending.count(msg.seq) && s.pending.size() >= kMaxPending) {  // a sender far ahead: drop its oldest
    const auto oldest = s.pending.begin();
    if (oldest->second.timer) rt_.cancel(oldest->second.deadline);
    s.pending.erase(oldest);
    ++rejected_;
  }
  FromSender::Pending& p = s.pending[msg.seq];
  if (!p.got.insert(msg.part).second) {  // the same part again (a replay, or a duplicate)
    ++rejected_;
    return;
  }
  on_time_[channel] += blocks;
  p.parts.push_back(msg.payload);
  p.expected = msg.parts;
  ++p.received;
  if (msg.part == 0) {
    p.marker = msg.payload;
    p.round = msg.round;
  }
  if (!p.marker) return;
  if (p.received == p.expected) {
    if (p.timer) rt_.cancel(p.deadline);
    assemble(msg.from, msg.seq);
  } else {  // the deadline runs from the marker or the latest part after it, whichever came last
    if (p.timer) rt_.cancel(p.deadline);
    const NodeId from = msg.from;
    const std::uint32_t seq = msg.seq;
    p.timer = true;
    p.deadline = rt_.schedule(TimeNs(spec_.deadline_ms * 1e6), [this, from, seq] { assemble(from, seq); });
  }
}

void DgtNode::assemble(NodeId from, std::uint32_t seq) {
  FromSender& s = from_[from];
  auto it = s.pending.find(seq);
  if (it == s.pending.end()) return;
  FromSender::Pending p = std::move(it->second);
  s.pending.erase(it);
  s.assembled = std::max(s.assembled, seq);
  for (auto o = s.pending.begin(); o != s.pending.end();)  // older pushes can no longer complete
    o = o->first < seq ? s.pending.erase(o) : std::next(o);
  auto push = std::make_shared<Payload>();
  push->loss_sum = p.marker->loss_sum;
  push->contributors = p.marker->contributors;
  push->from_zero = p.marker->from_zero;
  for (const CodedBlock& c : p.marker->coded) {  // in key order: the zero tensors come out sorted
    if (!is_segment_format(c.codec)) {
      push->coded.push_back(c);
      continue;
    }
    const auto size = tensor_size_.find(c.key);
    if (size == tensor_size_.end() || c.n > size->second) {  // no such tensor: never allocated, dropped
      ++rejected_;
      continue;
    }
    if (push->blocks.empty() || push->blocks.back().key != c.key)
      push->blocks.push_back({c.key, Eigen::VectorXf::Zero(c.n)});
  }
  const auto add = [&](const Payload& part) {
    for (const CodedBlock& c : part.coded) {
      if (!is_segment_format(c.codec)) continue;
      const auto t = std::lower_bound(push->blocks.begin(), push->blocks.end(), c.key,
                                      [](const ParamBlock& b, std::uint32_t k) { return b.key < k; });
      if (t == push->blocks.end() || t->key != c.key || t->values.size() != Eigen::Index(c.n)) {
        ++rejected_;  // a block of no tensor the push has: dropped, the sum untouched
        continue;
      }
      add_decoded(c, 1.0f, t->values);
    }
  };
  for (const auto& part : p.parts) add(*part);
  for (const auto& part : s.late) add(*part);
  s.late.clear();
  ++assembled_;
  role_->on_message(make_message(MsgKind::kPush, from, rt_.self(), p.round, std::move(push)));
}

nlohmann::json DgtNode::report(TimeNs now) const {
  nlohmann::json j = role_->report(now);
  if (seq_ == 0 && assembled_ == 0 && rejected_ == 0) return j;  // no DGT traffic, not even hostile
  nlohmann::json k = nlohmann::json::array();
  for (const auto& [t, v] : k_history_) k.push_back({t, v});
  j["dgt"] = {{"sent", sent_},
              {"on_time", on_time_},
              {"late", late_},
              {"k_history", k},
              {"pushes_sent", seq_},
              {"pushes_assembled", assembled_},
              {"zero_blocks", zero_blocks_},
              {"unsent", unsent_},
              {"rejected", rejected_}};
  return j;
}

StackNeeds dgt_stack_needs() {
  StackNeeds n;
  n.cuts_pushes = true;
  return n;
}

}  // namespace geotrain
