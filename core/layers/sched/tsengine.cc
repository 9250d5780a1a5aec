#include "core/layers/sched/tsengine.h"

#include <algorithm>
#include <vector>

namespace geotrain {

void TsEngine::begin_broadcast(std::int64_t, SchedOps& ops) {
  unserved_ = std::set<NodeId>(g_.members.begin(), g_.members.end());
  give_receiver(g_.root, ops);
}

void TsEngine::model_arrived(NodeId holder, NodeId receiver, SchedOps& ops) {
  give_receiver(holder, ops);  // every receiver becomes a relay
  give_receiver(receiver, ops);
}

void TsEngine::give_receiver(NodeId holder, SchedOps& ops) {
  if (unserved_.empty()) return;
  std::vector<NodeId> known;
  for (NodeId m : unserved_)
    if (g_.throughput->measured(holder, m)) known.push_back(m);
  // The intended rule (GeoMX's integer division made it 0): a real fraction.
  const double greedy = std::min(double(known.size()) / double(unserved_.size()), greedy_max_);
  NodeId pick;
  if (!known.empty() && std::uniform_real_distribution<double>(0, 1)(*g_.rng) < greedy) {
    pick = *std::max_element(known.begin(), known.end(), [&](NodeId a, NodeId b) {
      return g_.throughput->rate(holder, a) < g_.throughput->rate(holder, b);
    });
  } else {
    auto it = unserved_.begin();
    std::advance(it, std::uniform_int_distribution<std::size_t>(0, unserved_.size() - 1)(*g_.rng));
    pick = *it;
  }
  unserved_.erase(pick);
  ops.send_model(holder, pick);
}

void TsEngine::begin_aggregation(std::int64_t, SchedOps&) {
  queue_.assign(1, g_.root);
  merges_.clear();
  covered_.clear();
}

void TsEngine::ready(NodeId member, SchedOps& ops) {
  covered_[member] += 1;
  queue_.push_back(member);
  pair(ops);
}

void TsEngine::merged(NodeId from, NodeId into, SchedOps& ops) {
  ++merges_[into];
  covered_[into] += covered_[from];
  if (into == g_.root && covered_[into] == int(g_.members.size())) return;  // the round's sum is complete
  queue_.push_back(into);
  pair(ops);
}

void TsEngine::pair(SchedOps& ops) {
  while (queue_.size() >= 2) {
    const NodeId a = queue_.front();
    queue_.pop_front();
    const NodeId b = queue_.front();
    queue_.pop_front();
    NodeId from = a, to = b;
    if (a == g_.root) {
      std::swap(from, to);
    } else if (b != g_.root) {
      const double ab = g_.throughput->rate(a, b), ba = g_.throughput->rate(b, a);
      const bool a_sends = ab != ba ? ab > ba : std::uniform_int_distribution<int>(0, 1)(*g_.rng) == 0;
      if (!a_sends) std::swap(from, to);
    }
    ops.order_push(from, to, merges_[from]);
  }
}

}  // namespace geotrain
