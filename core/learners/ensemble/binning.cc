#include "core/learners/ensemble/binning.h"

#include "core/learners/ensemble/hashing.h"
#include "core/learners/metrics.h"

namespace geotrain {

const std::vector<MetricInfo>& weak_ranker_metrics() {
  static const std::vector<MetricInfo> m = [] {
    auto v = ranking_metrics();
    v.push_back({"rankers", true, "weak rankers added"});
    return v;
  }();
  return m;
}

std::vector<int> rows_of(const Dataset& d, const std::vector<int>& units) {
  if (d.kind != "ranking") return units;
  std::vector<int> rows;
  for (int q : units)
    for (int r = d.query_start[std::size_t(q)]; r < d.query_start[std::size_t(q) + 1]; ++r) rows.push_back(r);
  return rows;
}

Eigen::VectorXf sketch_rows(const Dataset& d, const std::vector<int>& rows, std::uint64_t seed, int k) {
  const int f = d.features(), w = 1 + f;
  std::vector<std::pair<float, int>> keyed;
  keyed.reserve(rows.size());
  for (int r : rows) keyed.push_back({float(unit_hash(seed, 0x5ce7c4, std::uint64_t(r))), r});
  const std::size_t keep = std::min<std::size_t>(std::size_t(k), keyed.size());
  std::partial_sort(keyed.begin(), keyed.begin() + std::ptrdiff_t(keep), keyed.end());
  Eigen::VectorXf out = Eigen::VectorXf::Constant(Eigen::Index(k) * w, kNoCandidate);
  for (std::size_t i = 0; i < keep; ++i) {
    float* c = out.data() + Eigen::Index(i) * w;
    c[0] = keyed[i].first;
    for (int j = 0; j < f; ++j) c[1 + j] = d.x(j, keyed[i].second);
  }
  return out;
}

Eigen::VectorXf cuts_from_sketch(const Eigen::VectorXf& merged, int features, int bins) {
  const int w = 1 + features, ncuts = bins - 1;
  const Eigen::Index rows = merged.size() / w;
  Eigen::VectorXf cuts = Eigen::VectorXf::Zero(Eigen::Index(features) * ncuts);
  std::vector<float> v;
  for (int f = 0; f < features; ++f) {
    v.clear();
    for (Eigen::Index r = 0; r < rows; ++r)
      if (merged[r * w] < kNoCandidate) v.push_back(merged[r * w + 1 + f]);
    std::sort(v.begin(), v.end());
    std::vector<float> c;
    const std::size_t n = v.size();
    std::vector<float> distinct = v;
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    if (distinct.size() <= std::size_t(bins)) {  // a bin per value
      for (std::size_t i = 0; i + 1 < distinct.size(); ++i)
        c.push_back(distinct[i] + (distinct[i + 1] - distinct[i]) / 2);
    } else {
      for (int i = 1; i <= ncuts; ++i) {
        // The boundary after the value at quantile i / bins, midway to the next larger value.
        const float a = v[std::max<std::size_t>(1, std::size_t(i) * n / std::size_t(bins)) - 1];
        const auto next = std::upper_bound(distinct.begin(), distinct.end(), a);
        if (next == distinct.end()) break;
        const float cut = a + (*next - a) / 2;
        if (c.empty() || cut > c.back()) c.push_back(cut);
      }
    }
    if (c.empty()) c.push_back(n ? v.front() : 0.0f);
    float* out = cuts.data() + Eigen::Index(f) * ncuts;
    for (int i = 0; i < ncuts; ++i) out[i] = c[std::min<std::size_t>(std::size_t(i), c.size() - 1)];
  }
  return cuts;
}

LearnerFootprint weak_ranker_footprint(LearnerFootprint f, int features, int sketch_rows, std::uint64_t stats) {
  f.update_floats = std::max(std::uint64_t(sketch_rows) * std::uint64_t(1 + features), stats);
  f.update_blocks = 1;
  return f;
}

}  // namespace geotrain
