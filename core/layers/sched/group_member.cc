#include "core/layers/sched/group_member.h"

#include <utility>

#include "core/payload/merge.h"

namespace geotrain {

GroupMember::GroupMember(Runtime& rt, NodeId root, std::vector<NodeId> siblings,
                         std::function<void(const Message&)> deliver, std::vector<BlockRule> rules)
    : rt_(rt),
      root_(root),
      siblings_(siblings.begin(), siblings.end()),
      deliver_(std::move(deliver)),
      rules_(std::move(rules)) {
  siblings_.erase(rt.self());
}

double GroupMember::clock_s() const { return to_seconds(rt_.now()); }

void GroupMember::report_to_root(MsgKind kind, std::int64_t round, NodeId other, double seconds, std::uint64_t bytes) {
  Message m = make_message(kind, rt_.self(), root_, round);
  m.seq = std::uint32_t(other);
  m.step_s = seconds;
  m.transfer_s = double(bytes);
  m.priority = 1;  // ahead of anything bulky queued to the root
  rt_.send(std::move(m));
}

bool GroupMember::on_send(const Message& msg) {
  if (msg.to != root_) return false;
  if (msg.kind == MsgKind::kPullRequest) {
    wants_ = true;
    if (model_ && !delivered_) rt_.schedule(0, [this] { deliver_model(); });  // never inside send()
    return false;  // the request still goes: the root learns who wants the model
  }
  if (msg.kind != MsgKind::kPush) return false;
  // The model answering this push is wanted, asked for or not (a role whose
  // policy waits for the model is sent it unasked, after the ack): a newer one
  // than the role has (not a second copy of the last, relayed late).
  wants_newer_ = true;
  pushes_[msg.round].own = msg;
  report_to_root(MsgKind::kReadyReport, msg.round, rt_.self(), 0, 0);
  try_push(msg.round);
  return true;
}

bool GroupMember::on_message(const Message& msg) {
  switch (msg.kind) {
    case MsgKind::kPullResponse: {
      if (!from_group(msg.from)) return false;
      if (origin_of(msg) != root_) {  // a group's only model is its server's
        ++rejected_;
        return true;
      }
      // An older model, or a second copy of the one held and not yet delivered: nothing new.
      if (model_ && (msg.round < model_->round || (msg.round == model_->round && !delivered_))) {
        ++duplicates_;
        return true;
      }
      report_to_root(MsgKind::kModelReport, msg.round, msg.from, clock_s() - msg.sent_s, msg.wire_bytes);
      Message m = msg;
      m.from = root_;  // to the role, the model comes from its server, whoever relayed it
      model_ = std::move(m);
      delivered_ = false;
      deliver_model();
      for (NodeId to : relay_to_[msg.round]) relay(to);
      relay_to_.erase(relay_to_.begin(), relay_to_.upper_bound(msg.round));
      return true;
    }
    case MsgKind::kPush: {
      if (!siblings_.count(msg.from)) return false;  // from a child: not this side's
      report_to_root(MsgKind::kMergeReport, msg.round, msg.from, clock_s() - msg.sent_s, msg.wire_bytes);
      pushes_[msg.round].merged.push_back(msg.payload);
      ++merged_;
      try_push(msg.round);
      return true;
    }
    case MsgKind::kRelayOrder:
    case MsgKind::kPushOrder: {
      if (msg.from != root_) {
        ++rejected_;
        return true;
      }
      const NodeId to = NodeId(msg.seq);
      if (to != root_ && !siblings_.count(to)) {  // only inside the group
        ++rejected_;
        return true;
      }
      if (msg.kind == MsgKind::kPushOrder) {
        if (msg.step_s == kPushAlone && !pushes_.count(msg.round) && last_own_ && last_own_->round == msg.round) {
          send_alone(*last_own_);  // already sent, into what was lost: again, alone
          return true;
        }
        pushes_[msg.round].order = std::make_pair(to, int(msg.step_s));
        try_push(msg.round);
      } else if (model_ && model_->round == msg.round) {
        relay(to);
      } else {
        relay_to_[msg.round].push_back(to);
      }
      return true;
    }
    default: return false;
  }
}

void GroupMember::deliver_model() {
  if (!model_ || delivered_) return;
  if (!wants_ && !(wants_newer_ && (!delivered_round_ || model_->round > *delivered_round_))) return;
  delivered_ = true;
  wants_ = wants_newer_ = false;
  delivered_round_ = model_->round;
  deliver_(*model_);
}

void GroupMember::relay(NodeId to) {
  Message m = *model_;
  m.from = rt_.self();
  m.to = to;
  m.origin = root_;  // relayed: the server's model, forwarded by me
  ++relayed_;
  rt_.send(std::move(m));
}

void GroupMember::try_push(std::int64_t round) {
  auto it = pushes_.find(round);
  if (it == pushes_.end()) return;
  Push& p = it->second;
  if (p.own && p.order && p.order->second == kPushAlone) {  // the plan was abandoned: what I merged comes again
    const Message own = *p.own;
    pushes_.erase(pushes_.begin(), std::next(it));
    return send_alone(own);
  }
  if (!p.own || !p.order || int(p.merged.size()) < p.order->second) return;
  last_own_ = p.own;
  Message m = *p.own;
  if (!p.merged.empty()) {  // my push plus what was sent to me, as one dense sum
    auto sum = std::make_shared<Payload>(densify(*m.payload));
    for (const auto& q : p.merged) merge(*sum, *q, rules_);
    m = make_message(MsgKind::kPush, rt_.self(), p.order->first, m.round, std::move(sum));
    m.priority = p.own->priority;
  }
  m.to = p.order->first;
  m.dest = root_;                                 // to a sibling that merges it: still bound for the server
  pushes_.erase(pushes_.begin(), std::next(it));  // this round and any older one are done
  rt_.send(std::move(m));
}

void GroupMember::rejoin() { report_to_root(MsgKind::kReadyReport, kRejoinedRound, rt_.self(), 0, 0); }

void GroupMember::send_alone(const Message& own) {
  Message m = own;
  m.to = root_;
  m.dest = root_;
  m.seq = kAlonePush;
  last_own_ = own;
  ++alone_;
  rt_.send(std::move(m));
}

nlohmann::json GroupMember::report() const {
  return {{"root", root_},         {"models_relayed", relayed_}, {"pushes_merged", merged_},
          {"rejected", rejected_}, {"pushes_alone", alone_},     {"duplicate_models", duplicates_}};
}

}  // namespace geotrain
