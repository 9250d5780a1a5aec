#include "core/learners/ensemble/adarank.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/learners/metrics.h"

namespace geotrain {
namespace {
// NDCG@10 of one query (documents lo .. lo + n - 1 of d) ranked by s.
double query_ndcg(const Dataset& d, int lo, int n, const std::vector<float>& s) {
  return mean_ndcg_at(10, s, std::vector<float>(d.target.begin() + lo, d.target.begin() + lo + n), {0, n});
}
}  // namespace

AdaRank::AdaRank(int features, int rounds) : features_(features), rounds_(rounds) {}

const std::vector<MetricInfo>& AdaRank::static_metrics() {
  static const std::vector<MetricInfo> m = [] {
    auto v = ranking_metrics();
    v.push_back({"rankers", true, "weak rankers (signed features) added"});
    return v;
  }();
  return m;
}

ParamSet AdaRank::init(std::uint64_t) const {
  return {{kState, Eigen::VectorXf::Zero(2)}, {kWeights, Eigen::VectorXf::Zero(features_)}};  // [added, last + 1]
}

std::vector<BlockRule> AdaRank::block_rules() const { return {{kStats, Merge::kSum, 1, 0, Precision::kRounding}}; }

bool AdaRank::finished(const ParamSet& p) const { return int(block_of(p, kState)[0]) >= rounds_; }

double AdaRank::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64&,
                             ParamSet* update) const {
  // [total weight, weighted NDCG of +x_0, -x_0, +x_1, ...]
  Eigen::VectorXf stats = Eigen::VectorXf::Zero(1 + 2 * Eigen::Index(features_));
  const Eigen::VectorXf& w = block_of(p, kWeights);
  double ndcg_sum = 0;
  std::vector<float> s;
  for (int q : batch) {
    const int lo = d.query_start[std::size_t(q)], n = d.query_start[std::size_t(q) + 1] - lo;
    s.resize(std::size_t(n));
    for (int i = 0; i < n; ++i) s[std::size_t(i)] = w.dot(d.x.col(lo + i));
    const double e = query_ndcg(d, lo, n, s);
    ndcg_sum += e;
    const double u = std::exp(-e);
    stats[0] += float(u);
    for (int f = 0; f < features_; ++f)
      for (int sign : {1, -1}) {
        for (int i = 0; i < n; ++i) s[std::size_t(i)] = float(sign) * d.x(f, lo + i);
        stats[1 + 2 * f + (sign < 0)] += float(u * query_ndcg(d, lo, n, s));
      }
  }
  update->clear();
  update->push_back({kStats, std::move(stats)});
  return batch.empty() ? 0.0 : 1.0 - ndcg_sum / double(batch.size());  // 1 - NDCG@10 on the shard
}

void AdaRank::apply(ParamSet& model, const ParamSet& merged, int) const {
  if (finished(model)) return;
  const Eigen::VectorXf& s = block_of(merged, kStats);
  if (s[0] <= 0) return;
  // The best signed feature but the last one chosen (as RankLib does: else one feature's weight grows forever).
  const int last = int(block_of(model, kState)[1]) - 1;
  Eigen::Index best = -1;
  for (Eigen::Index k = 0; k < 2 * features_; ++k)
    if (k != last && (best < 0 || s[1 + k] > s[1 + best])) best = k;
  if (best < 0) return;
  block_of(model, kState)[1] = float(best + 1);
  const double e = std::clamp(double(s[1 + best]) / s[0], 1e-6, 1 - 1e-6);
  const int f = int(best / 2), sign = best % 2 ? -1 : 1;
  block_of(model, kWeights)[f] += float(sign * 0.5 * std::log((1 + e) / (1 - e)));
  block_of(model, kState)[0] += 1;
}

std::vector<double> AdaRank::evaluate(const ParamSet& p, const Dataset& test) const {
  const Eigen::VectorXf& w = block_of(p, kWeights);
  std::vector<float> s(std::size_t(test.x.cols()));
  for (Eigen::Index j = 0; j < test.x.cols(); ++j) s[std::size_t(j)] = w.dot(test.x.col(j));
  return {mean_ndcg_at(10, s, test.target, test.query_start), double(block_of(p, kState)[0])};
}

}  // namespace geotrain
