#include "sim/max_min.h"

#include <algorithm>
#include <limits>

namespace geotrain::sim {

std::vector<double> max_min_rates(const std::vector<MaxMinFlow>& flows, const std::vector<double>& capacity) {
  return MaxMinSolver().solve(flows.data(), flows.size(), capacity);
}

const std::vector<double>& MaxMinSolver::solve(const MaxMinFlow* flows, std::size_t n,
                                               const std::vector<double>& capacity) {
  const double inf = std::numeric_limits<double>::infinity();
  rate_.assign(n, 0.0);
  left_.assign(capacity.begin(), capacity.end());
  users_.assign(capacity.size(), 0);
  frozen_.assign(n, 0);
  std::size_t unfrozen = 0;
  for (std::size_t f = 0; f < n; ++f) {
    if (flows[f].links.empty()) {
      rate_[f] = flows[f].cap;
      frozen_[f] = 1;
      continue;
    }
    ++unfrozen;
    for (int l : flows[f].links) ++users_[std::size_t(l)];
  }
  double level = 0;  // every unfrozen flow's rate so far
  while (unfrozen > 0) {
    // The next level at which a link fills or a flow meets its cap.
    double step = inf;
    for (std::size_t l = 0; l < left_.size(); ++l)
      if (users_[l] > 0) step = std::min(step, left_[l] / users_[l]);
    for (std::size_t f = 0; f < n; ++f)
      if (!frozen_[f] && flows[f].cap > 0) step = std::min(step, flows[f].cap - level);
    step = std::max(step, 0.0);
    level += step;
    for (std::size_t l = 0; l < left_.size(); ++l)
      if (users_[l] > 0) left_[l] -= step * users_[l];
    // Freeze the flows on every link now full, and those at their cap.
    for (std::size_t f = 0; f < n; ++f) {
      if (frozen_[f]) continue;
      bool stop = flows[f].cap > 0 && flows[f].cap - level <= 1e-12 * flows[f].cap;
      for (int l : flows[f].links)
        if (left_[std::size_t(l)] <= 1e-9 * capacity[std::size_t(l)]) stop = true;
      if (!stop) continue;
      frozen_[f] = 1;
      rate_[f] = level;
      --unfrozen;
      for (int l : flows[f].links) --users_[std::size_t(l)];
    }
  }
  return rate_;
}

}  // namespace geotrain::sim
