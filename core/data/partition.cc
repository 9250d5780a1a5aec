#include "core/data/partition.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

namespace geotrain {
namespace {

using Shards = std::vector<std::vector<int>>;

Shards split_iid(std::vector<int> idx, int units, std::mt19937_64& rng) {
  std::shuffle(idx.begin(), idx.end(), rng);
  Shards out(units);
  for (std::size_t i = 0; i < idx.size(); ++i) out[i % units].push_back(idx[i]);
  return out;
}

Shards split_by_class(const Dataset& d, const std::vector<int>& idx, int units, int per_unit, std::mt19937_64& rng) {
  std::vector<int> sorted = idx;
  std::shuffle(sorted.begin(), sorted.end(), rng);
  std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) { return d.y[a] < d.y[b]; });
  const int n_shards = units * per_unit;
  std::vector<int> order(n_shards);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  Shards out(units);
  const std::size_t n = sorted.size();
  for (int s = 0; s < n_shards; ++s) {
    std::size_t lo = n * s / n_shards, hi = n * (s + 1) / n_shards;
    auto& dst = out[order[s] % units];
    dst.insert(dst.end(), sorted.begin() + lo, sorted.begin() + hi);
  }
  return out;
}

Shards split_dirichlet(const Dataset& d, const std::vector<int>& idx, int units, double alpha, std::mt19937_64& rng) {
  std::vector<std::vector<int>> by_class(d.classes);
  for (int i : idx) by_class[d.y[i]].push_back(i);
  std::gamma_distribution<double> gamma(alpha, 1.0);
  Shards out(units);
  for (auto& members : by_class) {
    std::shuffle(members.begin(), members.end(), rng);
    std::vector<double> p(units);
    double sum = 0;
    for (auto& v : p) sum += (v = gamma(rng));
    double cum = 0;
    std::size_t lo = 0;
    for (int u = 0; u < units; ++u) {
      cum += p[u] / sum;
      std::size_t hi = u + 1 == units ? members.size() : std::min(members.size(), std::size_t(cum * members.size()));
      out[u].insert(out[u].end(), members.begin() + lo, members.begin() + hi);
      lo = hi;
    }
  }
  return out;
}

// No unit may be empty: take samples from the largest.
void fill_empty(Shards& s) {
  for (auto& shard : s) {
    if (!shard.empty()) continue;
    auto largest = std::max_element(s.begin(), s.end(), [](auto& a, auto& b) { return a.size() < b.size(); });
    if (largest->size() < 2) throw std::invalid_argument("partition: fewer samples than workers");
    shard.push_back(largest->back());
    largest->pop_back();
  }
}

Shards split(const Dataset& d, const std::vector<int>& idx, const PartitionSpec& spec, int units,
             std::mt19937_64& rng) {
  Shards s;
  if (spec.kind == "iid")
    s = split_iid(idx, units, rng);
  else if (spec.kind == "by_class")
    s = split_by_class(d, idx, units, spec.classes_per_unit, rng);
  else if (spec.kind == "dirichlet")
    s = split_dirichlet(d, idx, units, spec.alpha, rng);
  else
    throw std::invalid_argument("unknown partition kind '" + spec.kind + "'");
  fill_empty(s);
  return s;
}

}  // namespace

std::vector<std::vector<int>> partition(const Dataset& d, const PartitionSpec& spec,
                                        const std::vector<int>& workers_per_dc, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<int> all(d.size());
  std::iota(all.begin(), all.end(), 0);
  const int total = std::accumulate(workers_per_dc.begin(), workers_per_dc.end(), 0);
  if (total == 0) return {};
  if (spec.level == "worker") return split(d, all, spec, total, rng);
  if (spec.level != "dc") throw std::invalid_argument("unknown partition level '" + spec.level + "'");
  std::vector<int> active;  // DCs that train
  for (int w : workers_per_dc)
    if (w > 0) active.push_back(w);
  Shards per_dc = split(d, all, spec, static_cast<int>(active.size()), rng);
  Shards out;
  for (std::size_t i = 0; i < active.size(); ++i) {
    Shards inner = split_iid(per_dc[i], active[i], rng);
    fill_empty(inner);
    for (auto& s : inner) out.push_back(std::move(s));
  }
  return out;
}

}  // namespace geotrain
