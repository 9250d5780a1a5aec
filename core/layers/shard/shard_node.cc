#include "core/layers/shard/shard_node.h"

#include <algorithm>
#include <stdexcept>

namespace geotrain {

ShardNode::ShardNode(Runtime& rt, const ShardMap& map, std::vector<NodeId> servers, RunMonitor* monitor)
    : LayerNode(rt), map_(map), servers_(std::move(servers)), monitor_(monitor), my_shard_(shard_of(rt.self())) {}

int ShardNode::shard_of(NodeId n) const {
  const auto it = std::find(servers_.begin(), servers_.end(), n);
  return it == servers_.end() ? -1 : int(it - servers_.begin());
}

void ShardNode::send(Message msg) {
  const std::size_t S = servers_.size();
  if (my_shard_ < 0 && msg.to == servers_[0] && msg.kind == MsgKind::kPush && msg.payload) {
    std::vector<std::shared_ptr<Payload>> parts(S);
    for (auto& p : parts) {
      p = std::make_shared<Payload>();
      p->loss_sum = msg.payload->loss_sum;  // every shard counts the same steps and losses
      p->contributors = msg.payload->contributors;
    }
    std::size_t hint = 0;
    for (const ShardSlice& s : map_.slices()) {
      const auto& blocks = msg.payload->blocks;
      while (hint < blocks.size() && blocks[hint].key < s.key) ++hint;
      if (hint == blocks.size() || blocks[hint].key != s.key) throw std::logic_error("MultiGPS: a push lacks a tensor");
      parts[std::size_t(s.server)]->blocks.push_back(
          {s.key, blocks[hint].values.segment(Eigen::Index(s.offset), Eigen::Index(s.count))});
    }
    last_push_.clear();
    for (std::size_t s = 0; s < S; ++s) {
      Message m = make_message(MsgKind::kPush, msg.from, servers_[s], msg.round, parts[s]);
      m.step_s = msg.step_s;
      m.transfer_s = msg.transfer_s;
      m.priority = msg.priority;
      last_push_.push_back(m);
      rt_.send(std::move(m));
    }
    ++split_;
    return;
  }
  if (my_shard_ < 0 && msg.to == servers_[0] && msg.kind == MsgKind::kPullRequest) {
    last_pull_ = msg;
    pull_answered_.assign(S, false);
    for (NodeId s : servers_) {
      Message m = msg;
      m.to = s;
      rt_.send(std::move(m));
    }
    return;
  }
  if (my_shard_ >= 0 && msg.kind == MsgKind::kPullResponse && msg.round > reported_) {
    reported_ = msg.round;  // the round's model (every answer of a round is the same)
    if (my_shard_ == 0) {
      first_server_collect(msg.round, 0, msg.payload);
    } else {
      Message copy = msg;
      copy.to = servers_[0];
      rt_.send(std::move(copy));
    }
  }
  rt_.send(std::move(msg));
}

void ShardNode::on_message(const Message& msg) {
  const int from_shard = shard_of(msg.from);
  if (my_shard_ < 0 && from_shard >= 0) return child_receive(msg, from_shard);
  if (my_shard_ == 0 && from_shard > 0 && msg.kind == MsgKind::kPullResponse)
    return first_server_collect(msg.round, from_shard, msg.payload);
  if (my_shard_ == 0 && msg.kind == MsgKind::kPush && msg.payload) {
    loss_[msg.round].emplace(msg.from, std::make_pair(msg.payload->loss_sum, msg.payload->contributors));
  }
  role_->on_message(msg);
}

ParamSet ShardNode::join(const std::vector<std::shared_ptr<const Payload>>& parts) const {
  ParamSet whole;
  std::vector<std::size_t> next(parts.size(), 0);
  for (const ShardSlice& s : map_.slices()) {
    const Payload& p = *parts.at(std::size_t(s.server));
    std::size_t& i = next[std::size_t(s.server)];
    if (i >= p.blocks.size() || p.blocks[i].key != s.key || p.blocks[i].values.size() != Eigen::Index(s.count))
      throw std::runtime_error("MultiGPS: a shard's model does not match the placement");
    if (whole.empty() || whole.back().key != s.key) whole.push_back({s.key, Eigen::VectorXf()});
    Eigen::VectorXf& v = whole.back().values;
    v.conservativeResize(Eigen::Index(s.offset + s.count));
    v.segment(Eigen::Index(s.offset), Eigen::Index(s.count)) = p.blocks[i++].values;
  }
  return whole;
}

void ShardNode::child_receive(const Message& msg, int shard) {
  const std::size_t S = servers_.size();
  if (msg.kind == MsgKind::kPullResponse && msg.payload) {
    auto& parts = answers_[msg.round];
    parts.resize(S);
    parts[std::size_t(shard)] = msg.payload;
    if (last_pull_) pull_answered_[std::size_t(shard)] = true;
    double& t = answer_transfer_s_[msg.round];
    t = std::max(t, msg.transfer_s);
    if (std::any_of(parts.begin(), parts.end(), [](const auto& p) { return !p; })) return;
    Message out = msg;
    out.from = servers_[0];
    auto whole = std::make_shared<Payload>();
    whole->blocks = join(parts);
    out.payload = std::move(whole);
    out.transfer_s = t;
    answers_.erase(answers_.begin(), answers_.upper_bound(msg.round));
    last_pull_.reset();
    model_due_.reset();
    answer_transfer_s_.erase(answer_transfer_s_.begin(), answer_transfer_s_.upper_bound(msg.round));
    ++joined_;
    return role_->on_message(out);
  }
  if (msg.kind == MsgKind::kPushAck) return count_ack(msg, shard);
  if (msg.kind == MsgKind::kControl && shard > 0) return resync_shard(shard, msg.round);
  if (shard == 0) role_->on_message(msg);  // anything else the first server says for all
}

void ShardNode::count_ack(const Message& msg, int shard) {
  auto& acked = acks_[msg.round];
  acked.resize(servers_.size(), false);
  acked[std::size_t(shard)] = true;  // a repeated ack counts once
  if (std::find(acked.begin(), acked.end(), false) != acked.end()) return;
  acks_.erase(acks_.begin(), acks_.upper_bound(msg.round));
  if (!last_push_.empty() && last_push_[0].round <= msg.round) last_push_.clear();
  model_due_ = msg.round;
  Message out = msg;
  out.from = servers_[0];
  role_->on_message(out);
}

// A shard server at `server_round` (restarted from its checkpoint, or telling a
// child that was away) is sent again what it lacks of our last push and pull; a
// push it applied before its ack was lost counts as acked.
void ShardNode::resync_shard(int shard, std::int64_t server_round) {
  const auto s = std::size_t(shard);
  if (!last_push_.empty()) {
    const std::int64_t round = last_push_[s].round;
    const auto a = acks_.find(round);
    if (a == acks_.end() || !a->second[s]) {
      if (server_round == round) rt_.send(last_push_[s]);
      if (server_round > round) count_ack(make_message(MsgKind::kPushAck, servers_[s], rt_.self(), round), shard);
    }
  }
  if (last_pull_ && !pull_answered_[s]) {
    Message m = *last_pull_;
    m.to = servers_[s];
    rt_.send(std::move(m));
  } else if (!last_pull_ && model_due_ &&
             std::none_of(answers_.begin(), answers_.end(), [s](const auto& a) { return a.second.at(s) != nullptr; })) {
    rt_.send(make_message(MsgKind::kPullRequest, rt_.self(), servers_[s], *model_due_));  // its part may be lost
  }
}

void ShardNode::first_server_collect(std::int64_t round, int shard, std::shared_ptr<const Payload> part) {
  auto& parts = models_[round];
  parts.resize(servers_.size());
  parts[std::size_t(shard)] = std::move(part);
  if (std::any_of(parts.begin(), parts.end(), [](const auto& p) { return !p; })) return;
  ParamSet whole = join(parts);
  models_.erase(models_.begin(), models_.upper_bound(round));
  if (stopped_ || round <= evaluated_ || !monitor_) return;
  // The round's training loss: the mean over the steps pushed in the round before it.
  // Summed by sender, as the Aggregator sums (core/roles/aggregator.h), not in the order the pushes came.
  double sum = 0;
  int n = 0;
  const auto l = loss_.find(round - 1);
  if (l != loss_.end())
    for (const auto& [from, pushed] : l->second) {
      sum += pushed.first;
      n += pushed.second;
    }
  const double loss = n > 0 ? sum / n : 0;
  loss_.erase(loss_.begin(), loss_.upper_bound(round - 1));
  evaluated_ = round;
  last_model_ = std::move(whole);
  last_loss_ = loss;
  if (monitor_->on_round(rt_.now(), round, last_model_, loss)) {
    stopped_ = true;
    rt_.stop();
  }
}

void ShardNode::finish(TimeNs now) {
  role_->finish(now);
  if (monitor_ && !last_model_.empty()) monitor_->finish(now, evaluated_, last_model_, last_loss_);
}

nlohmann::json ShardNode::report(TimeNs now) const {
  nlohmann::json j = role_->report(now);
  // The servers may have applied a round past the one the monitor stopped at
  // (its shards were still on their way): the job's rounds are the monitor's.
  if (monitor_) j["rounds"] = evaluated_;
  j["shard"] = {
      {"shard", my_shard_}, {"pushes_split", split_}, {"models_joined", joined_}, {"rounds_evaluated", evaluated_}};
  return j;
}

StackNeeds multigps_stack_needs() {
  StackNeeds n;
  n.lockstep = true;
  n.why_lockstep = "every shard closes every round";
  n.dense = StackNeeds::Dense::kAll;
  n.why_dense = "each server sums its dense range of every push";
  n.whole_messages = true;
  n.why_whole = "it cuts pushes across the servers itself";
  n.routes = true;
  return n;
}

}  // namespace geotrain
