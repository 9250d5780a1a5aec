#include "core/learners/mapreduce/kmeans.h"

#include <limits>
#include <stdexcept>

namespace geotrain {
namespace {
using CMap = Eigen::Map<const Eigen::MatrixXf>;
}

KMeans::KMeans(const Dataset& train, int k, int local_iterations)
    : train_(train), k_(k), dims_(train.features()), local_(std::max(1, local_iterations)) {
  if (k <= 0 || k > train.x.cols()) throw std::invalid_argument("kmeans: k must be between 1 and the training samples");
}

const std::vector<MetricInfo>& KMeans::static_metrics() {
  static const std::vector<MetricInfo> m = {
      {"test_inertia", false, "mean squared distance of a test sample to its nearest centroid"}};
  return m;
}

std::pair<int, float> KMeans::nearest(const Eigen::MatrixXf& c, const Eigen::MatrixXf& x, Eigen::Index i) const {
  int best = 0;
  float d = std::numeric_limits<float>::infinity();
  for (int j = 0; j < k_; ++j) {
    const float e = (c.col(j) - x.col(i)).squaredNorm();
    if (e < d) d = e, best = j;
  }
  return {best, d};
}

ParamSet KMeans::init(std::uint64_t seed) const {
  // k-means++: the first centroid uniform, each next one drawn with probability proportional to the
  // squared distance to the nearest centroid chosen so far.
  std::mt19937_64 rng(seed);
  const Eigen::Index n = train_.x.cols();
  Eigen::MatrixXf c(dims_, k_);
  c.col(0) = train_.x.col(std::uniform_int_distribution<Eigen::Index>(0, n - 1)(rng));
  std::vector<double> d2(std::size_t(n), std::numeric_limits<double>::infinity());
  for (int j = 1; j < k_; ++j) {
    double total = 0;
    for (Eigen::Index i = 0; i < n; ++i) {
      d2[std::size_t(i)] = std::min(d2[std::size_t(i)], double((train_.x.col(i) - c.col(j - 1)).squaredNorm()));
      total += d2[std::size_t(i)];
    }
    double r = std::uniform_real_distribution<double>(0, total)(rng);
    Eigen::Index pick = n - 1;
    for (Eigen::Index i = 0; i < n; ++i)
      if ((r -= d2[std::size_t(i)]) <= 0) {
        pick = i;
        break;
      }
    c.col(j) = train_.x.col(pick);
  }
  return {{0, Eigen::Map<Eigen::VectorXf>(c.data(), c.size())}, {1, Eigen::VectorXf::Zero(k_)}};
}

double KMeans::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64&,
                            ParamSet* update) const {
  *update = zeros_like(p);
  Eigen::MatrixXf c = CMap(p[0].values.data(), dims_, k_);
  for (int it = 1; it < local_; ++it) {  // the local-steps variant: Lloyd on this shard alone first
    Eigen::MatrixXf s = Eigen::MatrixXf::Zero(dims_, k_);
    Eigen::VectorXf n = Eigen::VectorXf::Zero(k_);
    for (int i : batch) {
      const int j = nearest(c, d.x, i).first;
      s.col(j) += d.x.col(i);
      n[j] += 1.0f;
    }
    for (int j = 0; j < k_; ++j)
      if (n[j] > 0) c.col(j) = s.col(j) / n[j];
  }
  Eigen::Map<Eigen::MatrixXf> sums((*update)[0].values.data(), dims_, k_);
  double inertia = 0;
  for (int i : batch) {
    const auto [j, e] = nearest(c, d.x, i);
    sums.col(j) += d.x.col(i);
    (*update)[1].values[j] += 1.0f;
    inertia += e;
  }
  return batch.empty() ? 0.0 : inertia / double(batch.size());
}

void KMeans::apply(ParamSet& model, const ParamSet& merged, int) const {
  Eigen::Map<Eigen::MatrixXf> c(model[0].values.data(), dims_, k_);
  const CMap sums(merged[0].values.data(), dims_, k_);
  for (int j = 0; j < k_; ++j)
    if (merged[1].values[j] > 0) c.col(j) = sums.col(j) / merged[1].values[j];
  model[1].values = merged[1].values;
}

std::vector<double> KMeans::evaluate(const ParamSet& p, const Dataset& test) const {
  const Eigen::MatrixXf c = CMap(p[0].values.data(), dims_, k_);
  double inertia = 0;
  for (Eigen::Index i = 0; i < test.x.cols(); ++i) inertia += nearest(c, test.x, i).second;
  return {test.x.cols() ? inertia / double(test.x.cols()) : 0.0};
}

}  // namespace geotrain
