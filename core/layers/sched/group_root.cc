#include "core/layers/sched/group_root.h"

#include <utility>

#include "core/layers/sched/group_member.h"

namespace geotrain {

GroupRoot::GroupRoot(Runtime& rt, SchedGroup group,
                     const std::function<std::unique_ptr<GroupScheduler>(const SchedGroup&)>& make,
                     std::function<void(const Message&)> deliver)
    : rt_(rt),
      throughput_(std::make_unique<Throughput>()),
      group_(std::move(group)),
      members_(group_.members.begin(), group_.members.end()),
      deliver_(std::move(deliver)),
      make_(make),
      plan_(members_) {
  group_.throughput = throughput_.get();
  group_.rng = &rt.rng();
  sched_ = make(group_);
}

void GroupRoot::start() { sched_->begin_aggregation(0, *this); }

bool GroupRoot::on_send(const Message& msg) {
  if (restarting_ && msg.kind == MsgKind::kControl && is_member(msg.to)) {
    // The restored role tells its members the round: it runs without a plan.
    restarting_ = false;
    bcast_round_ = agg_round_ = abandoned_ = msg.round;
    ++abandoned_rounds_;
    return false;
  }
  if (msg.kind != MsgKind::kPullResponse || !is_member(msg.to)) return false;
  if (msg.round <= bcast_round_) {  // this round's model is already on its way to everyone planned
    if (planned(msg.to, msg.round) || modeled_.count(msg.to)) return true;
    modeled_.insert(msg.to);
    if (!model_ || model_->round < msg.round) model_ = msg;
    return false;  // outside the plan: straight from the root
  }
  replan_if_needed();
  bcast_round_ = msg.round;
  model_ = msg;
  modeled_.clear();
  source_.clear();
  reached_.clear();
  alone_.clear();
  round_starts_s_.push_back(to_seconds(rt_.now()));
  if (!plan_.empty()) sched_->begin_broadcast(msg.round, *this);
  agg_round_ = msg.round;  // the pushes that follow this model carry its round
  into_.clear();
  if (!plan_.empty()) sched_->begin_aggregation(agg_round_, *this);
  if (plan_.count(msg.to)) return true;
  modeled_.insert(msg.to);
  return false;
}

// At a round's start: the scheduler plans over the members that are up.
void GroupRoot::replan_if_needed() {
  std::set<NodeId> up;
  for (NodeId m : members_)
    if (!down_.count(m)) up.insert(m);
  if (up == plan_) return;
  plan_ = up;
  SchedGroup g = group_;
  g.members.assign(up.begin(), up.end());
  sched_ = make_(g);
  ++regroups_;
}

void GroupRoot::member_down(NodeId m) {
  if (!is_member(m) || !down_.insert(m).second) return;
  if (!plan_.count(m) || !model_) return;
  // What the lost member relayed or summed is gone with it: finish the round without the plan.
  if (abandoned_ != agg_round_) ++abandoned_rounds_;
  abandoned_ = agg_round_;
  for (NodeId o : plan_) {
    if (down_.count(o)) continue;
    if (!reached_.count(o)) order_alone(o, agg_round_);
    if (bcast_round_ == agg_round_ && !modeled_.count(o) && !model_coming(o)) send_direct(o);
  }
}

bool GroupRoot::model_coming(NodeId member) const {
  for (NodeId n = member; n != group_.root;) {
    const auto s = source_.find(n);
    if (s == source_.end()) return false;  // not yet given a holder: the plan would have, later
    n = s->second;
    if (down_.count(n)) return false;
  }
  return true;
}

void GroupRoot::send_direct(NodeId member) {
  modeled_.insert(member);
  source_[member] = group_.root;
  Message model = *model_;
  model.to = member;
  rt_.send(std::move(model));
}

void GroupRoot::member_up(NodeId m) { down_.erase(m); }

void GroupRoot::member_rejoined(NodeId m) {
  if (!is_member(m)) return;
  const bool was_down = down_.count(m) > 0;
  member_down(m);
  if (!was_down) member_up(m);
  modeled_.erase(m);
  if (!model_ || bcast_round_ != agg_round_) return;
  send_direct(m);
  if (!reached_.count(m)) order_alone(m, agg_round_);
}

void GroupRoot::order_alone(NodeId member, std::int64_t round) {
  if (round == agg_round_ && !alone_.insert(member).second) return;
  Message m = make_message(MsgKind::kPushOrder, group_.root, member, round);
  m.seq = std::uint32_t(group_.root);
  m.step_s = kPushAlone;
  m.priority = 1;
  ++orders_;
  rt_.send(std::move(m));
}

bool GroupRoot::on_message(const Message& msg) {
  switch (msg.kind) {
    case MsgKind::kModelReport:
    case MsgKind::kMergeReport:
    case MsgKind::kReadyReport: {
      if (!is_member(msg.from)) return false;
      const NodeId other = NodeId(msg.seq);
      if (msg.kind == MsgKind::kReadyReport) {
        if (msg.round == kRejoinedRound) member_rejoined(msg.from);
        // Behind (it was away): its push goes straight to the role, which tells it the round.
        if (msg.round < agg_round_ && msg.round != kRejoinedRound) order_alone(msg.from, msg.round);
        if (msg.round != agg_round_) return true;
        if (planned(msg.from, msg.round))
          sched_->ready(msg.from, *this);
        else if (!reached_.count(msg.from))
          order_alone(msg.from, msg.round);  // outside the plan (or after it was abandoned): straight to the root
        return true;
      }
      if (other != group_.root && !is_member(other)) {
        ++rejected_;
        return true;
      }
      throughput_->record(other, msg.from, std::uint64_t(msg.transfer_s), msg.step_s);
      if (msg.kind == MsgKind::kModelReport) {
        if (msg.round != bcast_round_) return true;
        modeled_.insert(msg.from);
        if (planned(msg.from, msg.round)) sched_->model_arrived(other, msg.from, *this);
      } else if (msg.round == agg_round_ && planned(msg.from, msg.round)) {
        sched_->merged(other, msg.from, *this);
      }
      return true;
    }
    case MsgKind::kPush: {
      if (!is_member(msg.from)) return false;
      throughput_->record(msg.from, group_.root, msg.wire_bytes, to_seconds(rt_.now()) - msg.sent_s);
      const bool alone = msg.seq == kAlonePush;
      if (!alone && msg.round == abandoned_) {  // what it carried comes again, each member's alone
        ++superseded_;
        return true;
      }
      std::vector<NodeId> covered;
      if (alone)
        covered.push_back(msg.from);
      else
        covered_by(msg.from, covered);
      if (msg.round == agg_round_) reached_.insert(covered.begin(), covered.end());
      deliver_(msg);
      for (NodeId m : covered) {
        if (m == msg.from) continue;
        Message empty = make_message(MsgKind::kPush, m, group_.root, msg.round, std::make_shared<Payload>());
        deliver_(empty);
      }
      if (msg.round == agg_round_ && planned(msg.from, msg.round)) sched_->merged(msg.from, group_.root, *this);
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
  source_[receiver] = holder;
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
  return {{"members", group_.members.size()},
          {"orders", orders_},
          {"transfers_measured", throughput_->samples()},
          {"replans", sched_->replans()},
          {"rejected", rejected_},
          {"round_starts_s", round_starts_s_},
          {"rounds_abandoned", abandoned_rounds_},  // a member lost mid-round: finished without the plan
          {"regroups", regroups_},                  // plans remade over the members that are up
          {"pushes_superseded", superseded_}};
}

}  // namespace geotrain
