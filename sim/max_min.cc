#include "sim/max_min.h"

#include <algorithm>
#include <limits>

namespace geotrain::sim {

std::vector<double> max_min_rates(const std::vector<MaxMinFlow>& flows, const std::vector<double>& capacity) {
  return max_min_rates(flows.data(), flows.size(), capacity);
}

std::vector<double> max_min_rates(const MaxMinFlow* flows, std::size_t n, const std::vector<double>& capacity) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> rate(n, 0.0), left = capacity;
  std::vector<int> users(capacity.size(), 0);  // unfrozen flows on each link
  std::vector<char> frozen(n, 0);
  std::size_t unfrozen = 0;
  for (std::size_t f = 0; f < n; ++f) {
    if (flows[f].links.empty()) {
      rate[f] = flows[f].cap;
      frozen[f] = 1;
      continue;
    }
    ++unfrozen;
    for (int l : flows[f].links) ++users[std::size_t(l)];
  }
  double level = 0;  // every unfrozen flow's rate so far
  while (unfrozen > 0) {
    // The next level at which a link fills or a flow meets its cap.
    double step = inf;
    for (std::size_t l = 0; l < left.size(); ++l)
      if (users[l] > 0) step = std::min(step, left[l] / users[l]);
    for (std::size_t f = 0; f < n; ++f)
      if (!frozen[f] && flows[f].cap > 0) step = std::min(step, flows[f].cap - level);
    step = std::max(step, 0.0);
    level += step;
    for (std::size_t l = 0; l < left.size(); ++l)
      if (users[l] > 0) left[l] -= step * users[l];
    // Freeze the flows on every link now full, and those at their cap.
    for (std::size_t f = 0; f < n; ++f) {
      if (frozen[f]) continue;
      bool stop = flows[f].cap > 0 && flows[f].cap - level <= 1e-12 * flows[f].cap;
      for (int l : flows[f].links)
        if (left[std::size_t(l)] <= 1e-9 * capacity[std::size_t(l)]) stop = true;
      if (!stop) continue;
      frozen[f] = 1;
      rate[f] = level;
      --unfrozen;
      for (int l : flows[f].links) --users[std::size_t(l)];
    }
  }
  return rate;
}

}  // namespace geotrain::sim
