#include "core/job/compute_model.h"

namespace geotrain {

ComputeModel::ComputeModel(const Topology& t, const ComputeSpec& c, const Deployment& d)
    : speed_(d.nodes.size()), worker_index_(d.nodes.size(), -1), spec_(c) {
  std::vector<int> rank_in_dc(t.dcs.size(), 0);
  for (const auto& n : d.nodes) {
    if (n.role != Role::kWorker) continue;
    const auto& dc = t.dcs[n.dc];
    const int r = rank_in_dc[n.dc]++;
    if (!dc.worker_gflops.empty())
      speed_[n.id].flops_per_s = dc.worker_gflops[r] * 1e9;
    else
      speed_[n.id].samples_per_s = dc.worker_samples_per_s[r];
    worker_index_[n.id] = n.worker_index;
  }
}

TimeNs ComputeModel::duration(NodeId node, const ComputeCost& cost, TimeNs now, std::mt19937_64& rng) const {
  if (spec_.jitter <= 0) return scaled(node, cost, now, 1.0);
  return scaled(node, cost, now, std::uniform_real_distribution<double>(1 - spec_.jitter, 1 + spec_.jitter)(rng));
}

TimeNs ComputeModel::earliest(NodeId node, const ComputeCost& cost, TimeNs now) const {
  return scaled(node, cost, now, 1 - spec_.jitter);  // monotone in the factor: <= any draw
}

TimeNs ComputeModel::scaled(NodeId node, const ComputeCost& cost, TimeNs now, double jitter_factor) const {
  const Speed& s = speed_[node];
  double secs = 0;
  if (s.flops_per_s > 0)
    secs = cost.flops / s.flops_per_s;
  else if (s.samples_per_s > 0)
    secs = cost.samples / s.samples_per_s;
  if (spec_.jitter > 0) secs *= jitter_factor;
  const double t = to_seconds(now);
  for (const auto& st : spec_.stragglers)
    if (st.worker == worker_index_[node] && t >= st.from_s && t < st.to_s) secs *= st.slowdown;
  return from_seconds(secs);
}

}  // namespace geotrain
