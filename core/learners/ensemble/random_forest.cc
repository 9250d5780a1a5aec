#include "core/learners/ensemble/random_forest.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/learners/classifier.h"
#include "core/learners/ensemble/booster.h"
#include "core/learners/ensemble/hashing.h"

namespace geotrain {
namespace {

TreeShape bagging(TreeShape s) {
  s.subtraction = false;  // a node's features are its own draw: its parent's histograms do not cover them
  s.server_keeps_complete = true;
  return s;
}

// Poisson(rate) by inversion of a uniform draw: P(k) = e^-rate rate^k / k!.
int poisson(double rate, double u) {
  double p = std::exp(-rate), cdf = p;
  int k = 0;
  while (u > cdf && k < 40) {
    ++k;
    p *= rate / k;
    cdf += p;
  }
  return k;
}

}  // namespace

RandomForest::RandomForest(int features, int classes, TreeShape shape, ForestParams fp)
    : HistTrees(features, bagging(shape), fp.trees_per_round, classes, classes),
      classes_(classes),
      per_split_(fp.features_fraction > 0 ? std::max(1, int(std::lround(fp.features_fraction * features)))
                                          : std::max(1, int(std::lround(std::sqrt(double(features)))))),
      fp_(fp) {}

const std::vector<MetricInfo>& RandomForest::static_metrics() {
  static const std::vector<MetricInfo> m = Booster::with_progress(classifier_metrics());
  return m;
}

double RandomForest::row_stats(const ParamSet& p, const Dataset& d, const std::vector<int>&,
                               const std::vector<int>& rows, int first, int, Eigen::MatrixXf* stats) const {
  const std::uint64_t seed = seed_of(p);
  *stats = Eigen::MatrixXf::Zero(Eigen::Index(group_) * classes_, Eigen::Index(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j)
    for (int t = 0; t < group_; ++t) {
      const int w =
          poisson(fp_.bootstrap_rate, unit_hash(seed, 0xba9 + std::uint64_t(first + t), std::uint64_t(rows[j])));
      (*stats)(Eigen::Index(t) * classes_ + d.y[std::size_t(rows[j])], Eigen::Index(j)) = float(w);
    }
  return 0.0;
}

std::vector<int> RandomForest::node_features(std::uint64_t seed, int tree, int node) const {
  if (per_split_ >= features_) return {};
  std::vector<std::pair<std::uint64_t, int>> keyed(static_cast<std::size_t>(features_));
  const std::uint64_t what = (std::uint64_t(tree) << 32) ^ std::uint64_t(node);
  for (int f = 0; f < features_; ++f) keyed[std::size_t(f)] = {hash3(seed, what, std::uint64_t(f)), f};
  std::nth_element(keyed.begin(), keyed.begin() + (per_split_ - 1), keyed.end());
  std::vector<int> out;
  for (int i = 0; i < per_split_; ++i) out.push_back(keyed[std::size_t(i)].second);
  std::sort(out.begin(), out.end());
  return out;
}

double RandomForest::child_weight(const double* s) const {
  double n = 0;
  for (int k = 0; k < classes_; ++k) n += s[k];
  return n;
}

double RandomForest::split_gain(const double* l, const double* r, const double* t) const {
  const double nl = child_weight(l), nr = child_weight(r), n = nl + nr;
  if (nl < fp_.min_leaf || nr < fp_.min_leaf || nl <= 0 || nr <= 0) return -std::numeric_limits<double>::infinity();
  double sl = 0, sr = 0, st = 0;  // Gini decrease x n: sum_k l_k^2 / n_l + r_k^2 / n_r - t_k^2 / n
  for (int k = 0; k < classes_; ++k) sl += l[k] * l[k], sr += r[k] * r[k], st += t[k] * t[k];
  return sl / nl + sr / nr - st / n;
}

void RandomForest::leaf_values(const double* s, float* out) const {
  const double n = child_weight(s);
  for (int k = 0; k < classes_; ++k) out[k] = n > 0 ? float(s[k] / n) : 1.0f / float(classes_);
}

std::vector<double> RandomForest::evaluate(const ParamSet& p, const Dataset& test) const {
  const ForestView f = complete_forest(p);
  const float* cuts = cuts_of(p);
  const int trees = trees_complete(p);
  if (test.x.cols() == 0) return {0, 0, double(trees), double(levels_grown(p))};
  int right = 0;
  double loss = 0;
  Eigen::VectorXf prob(classes_);
  for (Eigen::Index j = 0; j < test.x.cols(); ++j) {
    prob.setZero();
    for (int t = 0; t < trees; ++t) {
      const int n =
          f.descend(t, [&](int feature, int bin) { return goes_left(cuts, feature, bin, test.x(feature, j)); });
      for (int k = 0; k < classes_; ++k) prob[k] += f.values(n)[k];
    }
    if (trees > 0) prob /= float(trees);
    Eigen::Index best;
    prob.maxCoeff(&best);
    const int y = test.y[std::size_t(j)];
    right += int(best) == y;
    loss -= std::log(std::max(double(prob[y]), 1e-6));
  }
  const double n = double(test.x.cols());
  return {right / n, loss / n, double(trees), double(levels_grown(p))};
}

}  // namespace geotrain
