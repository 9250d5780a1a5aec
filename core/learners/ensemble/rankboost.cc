#include "core/learners/ensemble/rankboost.h"

#include <algorithm>
#include <cmath>

#include "core/learners/ensemble/binning.h"
#include "core/learners/metrics.h"

namespace geotrain {
namespace {
enum RankBoostState : int { kRbSeed, kRbPhase, kRbCount, kRbStateSize };  // phase 0: sketch; kCount: rankers added
}  // namespace

RankBoost::RankBoost(int features, int bins, int sketch_rows, int rounds)
    : features_(features), bins_(bins), sketch_rows_(sketch_rows), rounds_(rounds) {}

const std::vector<MetricInfo>& RankBoost::static_metrics() { return weak_ranker_metrics(); }

ParamSet RankBoost::init(std::uint64_t seed) const {
  Eigen::VectorXf st = Eigen::VectorXf::Zero(kRbStateSize);
  st[kRbSeed] = float(seed & 0xffffff);
  return {{kState, st},
          {kCuts, Eigen::VectorXf::Zero(Eigen::Index(features_) * (bins_ - 1))},
          {kRankers, Eigen::VectorXf::Zero(3 * Eigen::Index(rounds_))}};  // (feature, bin, alpha) each
}

std::vector<BlockRule> RankBoost::block_rules() const {
  return {sketch_rule(kSketch, features_, sketch_rows_), {kStats, Merge::kSum, 1, 0, Precision::kRounding}};
}

bool RankBoost::finished(const ParamSet& p) const { return int(block_of(p, kState)[kRbCount]) >= rounds_; }

double RankBoost::score(const ParamSet& p, const Dataset& d, Eigen::Index j) const {
  const Eigen::VectorXf& r = block_of(p, kRankers);
  const Eigen::VectorXf& cuts = block_of(p, kCuts);
  double h = 0;
  for (int t = 0; t < int(block_of(p, kState)[kRbCount]); ++t) {
    const int f = int(r[3 * t]), b = int(r[3 * t + 1]);
    if (d.x(f, j) > cuts[Eigen::Index(f) * (bins_ - 1) + b]) h += r[3 * t + 2];
  }
  return h;
}

double RankBoost::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64&,
                               ParamSet* update) const {
  update->clear();
  const Eigen::VectorXf& st = block_of(p, kState);
  const std::vector<int> rows = rows_of(d, batch);
  if (st[kRbPhase] == 0) {
    update->push_back({kSketch, sketch_rows(d, rows, std::uint64_t(st[kRbSeed]), sketch_rows_)});
    return 0.0;
  }
  // [Z, pi by feature and bin]
  Eigen::VectorXf stats = Eigen::VectorXf::Zero(1 + Eigen::Index(features_) * bins_);
  const Eigen::VectorXf& cuts = block_of(p, kCuts);
  double loss = 0;
  int pairs = 0;
  std::vector<double> h, pi;
  for (int q : batch) {
    const int lo = d.query_start[std::size_t(q)], n = d.query_start[std::size_t(q) + 1] - lo;
    h.assign(std::size_t(n), 0.0);
    pi.assign(std::size_t(n), 0.0);
    for (int i = 0; i < n; ++i) h[std::size_t(i)] = score(p, d, lo + i);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (d.target[std::size_t(lo + i)] <= d.target[std::size_t(lo + j)]) continue;
        const double w = std::exp(std::clamp(h[std::size_t(j)] - h[std::size_t(i)], -80.0, 80.0));
        pi[std::size_t(i)] += w;
        pi[std::size_t(j)] -= w;
        stats[0] += float(w);
        loss += w;
        ++pairs;
      }
    for (int i = 0; i < n; ++i) {
      if (pi[std::size_t(i)] == 0) continue;
      for (int f = 0; f < features_; ++f) {
        const int b = bin_of(cuts.data() + Eigen::Index(f) * (bins_ - 1), bins_ - 1, d.x(f, lo + i));
        stats[1 + Eigen::Index(f) * bins_ + b] += float(pi[std::size_t(i)]);
      }
    }
  }
  update->push_back({kStats, std::move(stats)});
  return pairs ? loss / pairs : 0.0;  // the exponential pair loss, per pair
}

void RankBoost::apply(ParamSet& model, const ParamSet& merged, int) const {
  Eigen::VectorXf& st = block_of(model, kState);
  if (finished(model)) return;
  if (st[kRbPhase] == 0) {
    block_of(model, kCuts) = cuts_from_sketch(block_of(merged, kSketch), features_, bins_);
    st[kRbPhase] = 1;
    return;
  }
  const Eigen::VectorXf& s = block_of(merged, kStats);
  const double z = s[0];
  if (z <= 0) return;
  double best = 0;
  int best_f = -1, best_b = 0;
  for (int f = 0; f < features_; ++f) {
    double above = 0;  // sum of pi over bins > b, from the top down
    for (int b = bins_ - 1; b >= 1; --b) {
      above += s[1 + Eigen::Index(f) * bins_ + b];
      const double r = above / z;
      if (std::abs(r) > std::abs(best)) best = r, best_f = f, best_b = b - 1;
    }
  }
  if (best_f < 0) return;
  const double r = std::clamp(best, -0.999999, 0.999999);
  Eigen::VectorXf& rk = block_of(model, kRankers);
  const int t = int(st[kRbCount]);
  rk[3 * t] = float(best_f);
  rk[3 * t + 1] = float(best_b);
  rk[3 * t + 2] = float(0.5 * std::log((1 + r) / (1 - r)));
  st[kRbCount] = float(t + 1);
}

std::vector<double> RankBoost::evaluate(const ParamSet& p, const Dataset& test) const {
  std::vector<float> s(std::size_t(test.x.cols()));
  for (Eigen::Index j = 0; j < test.x.cols(); ++j) s[std::size_t(j)] = float(score(p, test, j));
  return {mean_ndcg_at(10, s, test.target, test.query_start), double(block_of(p, kState)[kRbCount])};
}

}  // namespace geotrain
