#include "core/layers/sched/sched_node.h"

#include <algorithm>

#include "core/layers/sched/scheduler_registry.h"

namespace geotrain {
namespace {

// The scheduler chosen for the group `root` serves; null when not scheduled.
const SchedulerChoice* choice_for(const ScheduleSpec& schedule, const Deployment& dep, NodeId root) {
  const NodeSpec& r = dep.nodes.at(std::size_t(root));
  if (r.children.empty()) return nullptr;
  const bool wan = std::any_of(r.children.begin(), r.children.end(),
                               [&](NodeId c) { return dep.nodes.at(std::size_t(c)).dc != r.dc; });
  const SchedulerChoice& c = wan ? schedule.wan : schedule.lan;
  return c.on() ? &c : nullptr;
}

// What the topology says of a -> b (the scheduler's prior until measured).
void set_prior(Throughput& t, const Topology& topo, int initial_window_bytes, const NodeSpec& a, const NodeSpec& b) {
  const LinkSpec& la = topo.dcs.at(std::size_t(a.dc)).lan;
  const LinkSpec& lb = topo.dcs.at(std::size_t(b.dc)).lan;
  double mbps = std::min(la.bandwidth_mbps, lb.bandwidth_mbps);
  double latency_ms = la.latency_ms + lb.latency_ms;
  if (a.dc != b.dc) {
    const LinkSpec w = wan_path(topo, a.dc, b.dc);
    mbps = std::min(mbps, w.bandwidth_mbps);
    latency_ms += w.latency_ms;
  }
  t.set_prior(a.id, b.id, mbps * 1e6, latency_ms * 1e-3, initial_window_bytes);
}

bool is_group_traffic(MsgKind k) {
  switch (k) {
    case MsgKind::kPush:
    case MsgKind::kPullResponse:
    case MsgKind::kRelayOrder:
    case MsgKind::kPushOrder:
    case MsgKind::kModelReport:
    case MsgKind::kMergeReport:
    case MsgKind::kReadyReport: return true;
    default: return false;
  }
}

}  // namespace

bool SchedNode::needed(const ScheduleSpec& schedule, const Deployment& dep, NodeId id) {
  const NodeSpec& n = dep.nodes.at(std::size_t(id));
  return choice_for(schedule, dep, id) || (n.parent >= 0 && choice_for(schedule, dep, n.parent));
}

SchedNode::SchedNode(Runtime& rt, const ScheduleSpec& schedule, const Topology& topology, int initial_window_bytes,
                     const Deployment& dep, std::uint64_t model_bytes, std::vector<BlockRule> rules)
    : LayerNode(rt), spec_(dep.nodes.at(std::size_t(rt.self()))) {
  auto deliver = [this](const Message& m) { role_->on_message(m); };
  if (spec_.parent >= 0 && choice_for(schedule, dep, spec_.parent))
    member_.emplace(rt, spec_.parent, dep.nodes.at(std::size_t(spec_.parent)).children, deliver, std::move(rules));
  if (const SchedulerChoice* c = choice_for(schedule, dep, spec_.id)) {
    SchedGroup g;
    g.root = spec_.id;
    g.members = spec_.children;
    std::sort(g.members.begin(), g.members.end());
    g.model_bytes = model_bytes;
    const SchedulerInfo* info = find_scheduler(c->kind);
    const NumericParams params = c->params;
    root_.emplace(
        rt, g, [info, params](const SchedGroup& group) { return info->make(params, group); }, deliver);
    std::vector<NodeId> all{spec_.id};
    all.insert(all.end(), g.members.begin(), g.members.end());
    for (NodeId a : all)
      for (NodeId b : all)
        if (a != b)
          set_prior(root_->throughput(), topology, initial_window_bytes, dep.nodes.at(std::size_t(a)),
                    dep.nodes.at(std::size_t(b)));
  }
}

void SchedNode::start() {
  if (root_) root_->start();
  role_->start();
}

void SchedNode::rejoin() {
  if (member_) member_->rejoin();
  if (root_) root_->rejoin();
  role_->rejoin();
}

void SchedNode::send(Message msg) {
  if (root_ && root_->on_send(msg)) return;
  if (member_ && member_->on_send(msg)) return;
  rt_.send(std::move(msg));
}

void SchedNode::on_message(const Message& msg) {
  if (member_ && member_->on_message(msg)) return;
  if (root_ && root_->on_message(msg)) return;
  if (is_group_traffic(msg.kind)) {
    // Only the parent and the children talk to a role; anything else here is
    // a relay this node never accepted (or a forgery): dropped and counted.
    const bool child = std::find(spec_.children.begin(), spec_.children.end(), msg.from) != spec_.children.end();
    const bool ordinary = msg.kind == MsgKind::kPush || msg.kind == MsgKind::kPullResponse;
    if (!ordinary || (msg.from != spec_.parent && !child)) {
      ++rejected_;
      return;
    }
  }
  role_->on_message(msg);
}

void SchedNode::on_peer_down(NodeId peer) {
  if (root_) root_->member_down(peer);
  role_->on_peer_down(peer);
}

void SchedNode::on_peer_up(NodeId peer) {
  if (root_) root_->member_up(peer);
  role_->on_peer_up(peer);
}

nlohmann::json SchedNode::report(TimeNs now) const {
  nlohmann::json j = role_->report(now);
  nlohmann::json s = {{"rejected", rejected_}};
  if (member_) s["member"] = member_->report();
  if (root_) s["root"] = root_->report();
  j["sched"] = s;
  return j;
}

}  // namespace geotrain
