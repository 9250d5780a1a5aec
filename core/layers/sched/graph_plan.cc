#include "core/layers/sched/graph_plan.h"

#include <cmath>
#include <limits>

namespace geotrain {
namespace {

// Earliest completion first over `n` vertices (0 the source), weight(i, j) the
// seconds i -> j takes, every holder sending one transfer at a time. Returns
// each holder's receivers in the order it serves them.
template <class Weight>
std::vector<std::vector<std::size_t>> earliest_completion(std::size_t n, Weight weight) {
  std::vector<std::vector<std::size_t>> sends(n);
  std::vector<double> free_at(n, 0);  // when each holder is done with what it was given
  std::vector<bool> holds(n, false);
  holds[0] = true;
  for (std::size_t served = 1; served < n; ++served) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t from = 0, to = 0;
    for (std::size_t h = 0; h < n; ++h) {
      if (!holds[h]) continue;
      for (std::size_t j = 1; j < n; ++j) {
        if (holds[j]) continue;
        const double done = free_at[h] + weight(h, j);
        if (to == 0 || done < best) best = done, from = h, to = j;
      }
    }
    sends[from].push_back(to);
    holds[to] = true;
    free_at[to] = free_at[from] = best;
  }
  return sends;
}

}  // namespace

void GraphPlan::plan() {
  // Vertex 0 is the root, vertex k the k-th member.
  std::vector<NodeId> node{g_.root};
  node.insert(node.end(), g_.members.begin(), g_.members.end());
  const std::size_t n = node.size();
  const auto secs = [&](std::size_t a, std::size_t b) {
    return g_.throughput->seconds(node[a], node[b], g_.model_bytes);
  };
  const auto down = earliest_completion(n, secs);
  const auto up = earliest_completion(n, [&](std::size_t i, std::size_t j) { return secs(j, i); });
  sends_.clear();
  receives_.clear();
  subtree_pushes_.clear();
  assumed_.clear();
  for (std::size_t h = 0; h < n; ++h) {
    for (std::size_t j : down[h]) {
      sends_[node[h]].push_back(node[j]);
      assumed_[{node[h], node[j]}] = secs(h, j);
    }
    // Backwards in time: the member the reversed plan served last sends first.
    for (auto it = up[h].rbegin(); it != up[h].rend(); ++it) {
      receives_[node[h]].push_back(node[*it]);
      assumed_[{node[*it], node[h]}] = secs(*it, h);
    }
    subtree_pushes_[node[h]] = int(up[h].size());
  }
  if (planned_) ++replans_;
  planned_ = true;
}

void GraphPlan::plan_if_needed() {
  if (!planned_) return plan();
  for (const auto& [edge, was] : assumed_) {
    const double now = g_.throughput->seconds(edge.first, edge.second, g_.model_bytes);
    if (std::abs(now - was) > threshold_ * was) return plan();
  }
}

// The whole plan is ordered at once: a member's sends wait at it until the
// model (or its subtree's pushes) is there, with no round trip to the root.
void GraphPlan::begin_broadcast(std::int64_t, SchedOps& ops) {
  plan_if_needed();
  for (const auto& [holder, receivers] : sends_)
    for (NodeId r : receivers) ops.send_model(holder, r);
}

void GraphPlan::begin_aggregation(std::int64_t, SchedOps& ops) {
  if (!planned_) plan();
  for (const auto& [into, senders] : receives_)
    for (NodeId s : senders) ops.order_push(s, into, subtree_pushes_[s]);
}

}  // namespace geotrain
