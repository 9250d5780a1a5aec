#include "core/sched/group_root.h"

#include <utility>

namespace geotrain {

GroupRoot::GroupRoot(Runtime& rt, SchedGroup group,
                     const std::function<std::unique_ptr<GroupScheduler>(const SchedGroup&)>& make,
                     std::function<void(const Message&)> deliver)
    : rt_(rt),
      throughput_(std::make_unique<Throughput>()),
      group_(std::move(group)),
      members_(group_.members.begin(), group_.members.end()),
      deliver_(std::move(deliver)) {
  group_.throughput = throughput_.get();
  group_.rng = &rt.rng();
  sched_ = make(group_);
}

void GroupRoot::start() { sched_->begin_aggregation(0, *this); }

bool GroupRoot::on_send(const Message& msg) {
  if (msg.kind != MsgKind::kPullResponse || !is_member(msg.to)) return false;
  if (msg.round <= bcast_round_) return true;  // this round's model is already on its way to everyone
  bcast_round_ = msg.round;
  model_ = msg;
  round_starts_s_.push_back(to_seconds(rt_.now()));
  sched_->begin_broadcast(msg.round, *this);
  agg_round_ = msg.round;  // the pushes that follow this model carry its round
  into_.clear();
  sched_->begin_aggregation(agg_round_, *this);
  return true;
}

bool GroupRoot::on_message(const Message& msg) {
  switch (msg.kind) {
    case MsgKind::kModelReport:
    case MsgKind::kMergeReport:
    case MsgKind::kReadyReport: {
      if (!is_member(msg.from)) return false;
      const NodeId other = NodeId(msg.seq);
      if (msg.kind == MsgKind::kReadyReport) {
        if (msg.round == agg_round_) sched_->ready(msg.from, *this);
        return true;
      }
      if (other != group_.root && !is_member(other)) {
        ++rejected_;
        return true;
      }
      throughput_->record(other, msg.from, std::uint64_t(msg.transfer_s), msg.step_s);
      if (msg.kind == MsgKind::kModelReport) {
        if (msg.round == bcast_round_) sched_->model_arrived(other, msg.from, *this);
      } else if (msg.round == agg_round_) {
        sched_->merged(other, msg.from, *this);
      }
      return true;
    }
    case MsgKind::kPush: {
      if (!is_member(msg.from)) return false;
      throughput_->record(msg.from, group_.root, msg.wire_bytes, to_seconds(rt_.now()) - msg.sent_s);
      std::vector<NodeId> covered;
      covered_by(msg.from, covered);
      deliver_(msg);
      for (NodeId m : covered) {
        if (m == msg.from) continue;
        Message empty = make_message(MsgKind::kPush, m, group_.root, msg.round, std::make_shared<Payload>());
        deliver_(empty);
      }
      if (msg.round == agg_round_) sched_->merged(msg.from, group_.root, *this);
      return true;
    }
    default: return false;
  }
}

void GroupRoot::covered_by(NodeId n, std::vector<NodeId>& out) const {
  out.push_back(n);
  for (const auto& [sender, receiver] : into_)
    if (receiver == n) covered_by(sender, out);
}

void GroupRoot::send_model(NodeId holder, NodeId receiver) {
  if (holder == group_.root) {
    Message m = *model_;
    m.to = receiver;
    rt_.send(std::move(m));
    return;
  }
  Message m = make_message(MsgKind::kRelayOrder, group_.root, holder, bcast_round_);
  m.seq = std::uint32_t(receiver);
  m.priority = 1;
  ++orders_;
  rt_.send(std::move(m));
}

void GroupRoot::order_push(NodeId sender, NodeId receiver, int merges) {
  into_[sender] = receiver;
  Message m = make_message(MsgKind::kPushOrder, group_.root, sender, agg_round_);
  m.seq = std::uint32_t(receiver);
  m.step_s = merges;
  m.priority = 1;
  ++orders_;
  rt_.send(std::move(m));
}

nlohmann::json GroupRoot::report() const {
  return {{"members", group_.members.size()}, {"orders", orders_},     {"transfers_measured", throughput_->samples()},
          {"replans", sched_->replans()},     {"rejected", rejected_}, {"round_starts_s", round_starts_s_}};
}

}  // namespace geotrain
