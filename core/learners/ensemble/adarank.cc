#include "core/learners/ensemble/adarank.h"

#include <algorithm>
#include <cmath>

#include "core/learners/ensemble/binning.h"
#include "core/learners/metrics.h"

namespace geotrain {
namespace {
enum AdaRankState : int { kArSeed, kArPhase, kArCount, kArLast, kArStateSize };  // kArLast: last ranker + 1
// NDCG@10 of one query (documents lo .. lo + n - 1 of d) ranked by s.
double query_ndcg(const Dataset& d, int lo, int n, const std::vector<float>& s) {
  return mean_ndcg_at(10, s, std::vector<float>(d.target.begin() + lo, d.target.begin() + lo + n), {0, n});
}
}  // namespace

AdaRank::AdaRank(int features, int bins, int sketch_rows, int rounds)
    : features_(features), bins_(bins), sketch_rows_(sketch_rows), rounds_(rounds) {}

const std::vector<MetricInfo>& AdaRank::static_metrics() { return weak_ranker_metrics(); }

ParamSet AdaRank::init(std::uint64_t seed) const {
  Eigen::VectorXf st = Eigen::VectorXf::Zero(kArStateSize);
  st[kArSeed] = float(seed & 0xffffff);
  return {{kState, st},
          {kCuts, Eigen::VectorXf::Zero(Eigen::Index(features_) * (bins_ - 1))},
          {kRankers, Eigen::VectorXf::Zero(2 * Eigen::Index(rounds_))}};  // (weak ranker, alpha) each
}

std::vector<BlockRule> AdaRank::block_rules() const {
  return {sketch_rule(kSketch, features_, sketch_rows_), {kStats, Merge::kSum, 1, 0, Precision::kRounding}};
}

bool AdaRank::finished(const ParamSet& p) const { return int(block_of(p, kState)[kArCount]) >= rounds_; }

float AdaRank::weak(const ParamSet& p, int k, const Dataset& d, Eigen::Index j) const {
  const int f = k / (2 * bins_), b = (k / 2) % bins_;
  const float sign = k % 2 ? -1.0f : 1.0f, x = d.x(f, j);
  if (b == 0) return sign * x;
  return x > block_of(p, kCuts)[Eigen::Index(f) * (bins_ - 1) + b - 1] ? sign : 0.0f;
}

double AdaRank::score(const ParamSet& p, const Dataset& d, Eigen::Index j) const {
  const Eigen::VectorXf& r = block_of(p, kRankers);
  double s = 0;
  for (int t = 0; t < int(block_of(p, kState)[kArCount]); ++t) s += r[2 * t + 1] * weak(p, int(r[2 * t]), d, j);
  return s;
}

double AdaRank::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64&,
                             ParamSet* update) const {
  update->clear();
  const Eigen::VectorXf& st = block_of(p, kState);
  if (st[kArPhase] == 0) {
    update->push_back({kSketch, sketch_rows(d, rows_of(d, batch), std::uint64_t(st[kArSeed]), sketch_rows_)});
    return 0.0;
  }
  // [total weight, weighted NDCG of each weak ranker]
  Eigen::VectorXf stats = Eigen::VectorXf::Zero(1 + rankers());
  double ndcg_sum = 0;
  std::vector<float> s;
  for (int q : batch) {
    const int lo = d.query_start[std::size_t(q)], n = d.query_start[std::size_t(q) + 1] - lo;
    s.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) s[std::size_t(i)] = float(score(p, d, lo + i));
    const double e = query_ndcg(d, lo, n, s);
    ndcg_sum += e;
    const double u = std::exp(-e);
    stats[0] += float(u);
    for (int k = 0; k < rankers(); ++k) {
      for (int i = 0; i < n; ++i) s[std::size_t(i)] = weak(p, k, d, lo + i);
      stats[1 + k] += float(u * query_ndcg(d, lo, n, s));
    }
  }
  update->push_back({kStats, std::move(stats)});
  return batch.empty() ? 0.0 : 1.0 - ndcg_sum / double(batch.size());  // 1 - NDCG@10 on the shard
}

void AdaRank::apply(ParamSet& model, const ParamSet& merged, int) const {
  Eigen::VectorXf& st = block_of(model, kState);
  if (finished(model)) return;
  if (st[kArPhase] == 0) {
    block_of(model, kCuts) = cuts_from_sketch(block_of(merged, kSketch), features_, bins_);
    st[kArPhase] = 1;
    return;
  }
  const Eigen::VectorXf& s = block_of(merged, kStats);
  if (s[0] <= 0) return;
  const int last = int(st[kArLast]) - 1;
  int best = -1;
  for (int k = 0; k < rankers(); ++k)
    if (k != last && (best < 0 || s[1 + k] > s[1 + best])) best = k;
  if (best < 0) return;
  const double e = std::clamp(double(s[1 + best]) / s[0], 1e-6, 1 - 1e-6);
  const int t = int(st[kArCount]);
  block_of(model, kRankers)[2 * t] = float(best);
  block_of(model, kRankers)[2 * t + 1] = float(0.5 * std::log((1 + e) / (1 - e)));
  st[kArCount] = float(t + 1);
  st[kArLast] = float(best + 1);
}

std::vector<double> AdaRank::evaluate(const ParamSet& p, const Dataset& test) const {
  std::vector<float> s(std::size_t(test.x.cols()));
  for (Eigen::Index j = 0; j < test.x.cols(); ++j) s[std::size_t(j)] = float(score(p, test, j));
  return {mean_ndcg_at(10, s, test.target, test.query_start), double(block_of(p, kState)[kArCount])};
}

}  // namespace geotrain
