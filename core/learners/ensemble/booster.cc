#include "core/learners/ensemble/booster.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/learners/ensemble/hashing.h"

namespace geotrain {
namespace {

// A fingerprint of the nodes of the first `trees` trees (the complete groups
// come first in the nodes block): tells a worker its cached scores still hold.
std::uint64_t prefix_hash(const ForestView& f, const Eigen::VectorXf& nodes, int trees, int width) {
  const int end = trees >= f.trees() ? f.nodes() : f.root(trees);
  std::uint64_t h = std::uint64_t(trees);
  for (Eigen::Index i = 0; i < Eigen::Index(end) * width; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, nodes.data() + i, 4);
    h = mix64(h ^ bits);
  }
  return h;
}

}  // namespace

struct Booster::Scores {
  const Dataset* data = nullptr;
  Eigen::MatrixXf s;         // outputs x rows of data
  std::vector<int> applied;  // trees summed into each row's scores
  int trees = 0;             // the fingerprint covers this many trees
  std::uint64_t hash = 0;
};

Booster::Booster(std::string name, int features, TreeShape shape, BoostParams bp,
                 std::unique_ptr<BoostObjective> objective)
    : HistTrees(features, shape, objective->outputs(), 2, 1),
      name_(std::move(name)),
      bp_(bp),
      objective_(std::move(objective)),
      metrics_(with_progress(objective_->metrics())) {}

std::vector<MetricInfo> Booster::with_progress(const std::vector<MetricInfo>& m) {
  std::vector<MetricInfo> out = m;
  out.push_back({"trees", true, "trees complete"});
  out.push_back({"levels", true, "tree levels grown (one a round)"});
  return out;
}

Eigen::MatrixXf Booster::train_scores(const ParamSet& p, const Dataset& d, const std::vector<int>& rows,
                                      int trees) const {
  const ForestView f = forest(p);
  const float* cuts = cuts_of(p);
  const Eigen::VectorXf* nodes = &block_of(p, kNodes);
  const int width = kNodeFields + 1;
  std::lock_guard<std::mutex> lock(scores_mutex_);
  if (!scores_ || scores_->data != &d) {
    scores_ = std::make_shared<Scores>();
    scores_->data = &d;
    scores_->s = Eigen::MatrixXf::Zero(group_, d.x.cols());
    scores_->applied.assign(std::size_t(d.x.cols()), 0);
  }
  Scores& c = *scores_;
  if (c.trees > trees || (c.trees > 0 && prefix_hash(f, *nodes, c.trees, width) != c.hash)) {
    c.s.setZero();  // another forest (a restored checkpoint): start again
    std::fill(c.applied.begin(), c.applied.end(), 0);
    c.trees = 0;
  }
  Eigen::MatrixXf out(group_, Eigen::Index(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) {
    const int r = rows[j];
    for (int t = c.applied[std::size_t(r)]; t < trees; ++t) {
      const int n = f.descend(t, [&](int feature, int bin) { return goes_left(cuts, feature, bin, d.x(feature, r)); });
      c.s(t % group_, r) += f.values(n)[0];
    }
    c.applied[std::size_t(r)] = trees;
    out.col(Eigen::Index(j)) = c.s.col(r);
  }
  if (c.trees != trees) {
    c.trees = trees;
    c.hash = prefix_hash(f, *nodes, trees, width);
  }
  return out;
}

double Booster::row_stats(const ParamSet& p, const Dataset& d, const std::vector<int>& batch,
                          const std::vector<int>& rows, int first, int iteration, Eigen::MatrixXf* stats) const {
  const Eigen::MatrixXf s = train_scores(p, d, rows, first);
  Eigen::MatrixXf g, h;
  const double loss = objective_->gradients(d, batch, rows, s, &g, &h);
  const std::uint64_t seed = seed_of(p);
  const double gb = objective_->gradient_bound(), hb = bp_.second_order ? objective_->hessian_bound() : 1.0;
  const int gbits = quantize_bits(gb, d.x.cols()), hbits = quantize_bits(hb, d.x.cols());
  *stats = Eigen::MatrixXf::Zero(2 * group_, Eigen::Index(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) {
    const std::uint64_t r = std::uint64_t(rows[j]);
    if (bp_.subsample < 1.0 && unit_hash(seed, 0x5ab5 + std::uint64_t(iteration), r) >= bp_.subsample) continue;
    for (int t = 0; t < group_; ++t) {
      const std::uint64_t what = (std::uint64_t(first + t) << 1);
      const float gv = std::clamp(g(t, Eigen::Index(j)), float(-gb), float(gb));
      (*stats)(2 * t, Eigen::Index(j)) = quantize(gv, gbits, unit_hash(seed, what, r));
      (*stats)(2 * t + 1, Eigen::Index(j)) =
          bp_.second_order
              ? quantize(std::clamp(h(t, Eigen::Index(j)), 0.0f, float(hb)), hbits, unit_hash(seed, what | 1, r))
              : 1.0f;
    }
  }
  return loss;
}

std::vector<int> Booster::node_features(std::uint64_t seed, int tree, int) const {
  if (bp_.colsample >= 1.0) return {};
  const int m = std::max(1, int(std::lround(bp_.colsample * features_)));
  std::vector<std::pair<std::uint64_t, int>> keyed(static_cast<std::size_t>(features_));
  for (int f = 0; f < features_; ++f)
    keyed[std::size_t(f)] = {hash3(seed, 0xc015 + std::uint64_t(tree), std::uint64_t(f)), f};
  std::nth_element(keyed.begin(), keyed.begin() + (m - 1), keyed.end());
  std::vector<int> out;
  for (int i = 0; i < m; ++i) out.push_back(keyed[std::size_t(i)].second);
  std::sort(out.begin(), out.end());
  return out;
}

double Booster::split_gain(const double* l, const double* r, const double* t) const {
  if (l[1] < bp_.min_child_weight || r[1] < bp_.min_child_weight) return -std::numeric_limits<double>::infinity();
  const auto score = [this](const double* s) { return s[0] * s[0] / (s[1] + bp_.lambda); };
  return 0.5 * (score(l) + score(r) - score(t)) - bp_.gamma;
}

void Booster::leaf_values(const double* sums, float* out) const {
  out[0] = float(-bp_.eta * sums[0] / (sums[1] + bp_.lambda));
}

Eigen::MatrixXf Booster::predict(const ParamSet& p, const Dataset& d) const {
  const ForestView f = complete_forest(p);
  const float* cuts = cuts_of(p);
  const int trees = trees_complete(p);
  Eigen::MatrixXf s = Eigen::MatrixXf::Zero(group_, d.x.cols());
  for (Eigen::Index j = 0; j < d.x.cols(); ++j)
    for (int t = 0; t < trees; ++t) {
      const int n = f.descend(t, [&](int feature, int bin) { return goes_left(cuts, feature, bin, d.x(feature, j)); });
      s(t % group_, j) += f.values(n)[0];
    }
  return s;
}

std::vector<double> Booster::evaluate(const ParamSet& p, const Dataset& test) const {
  std::vector<double> m = objective_->evaluate(predict(p, test), test);
  m.push_back(trees_complete(p));
  m.push_back(levels_grown(p));
  return m;
}

}  // namespace geotrain
