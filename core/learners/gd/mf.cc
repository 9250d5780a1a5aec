#include "core/learners/gd/mf.h"

#include <cmath>
#include <stdexcept>

namespace geotrain {

MatrixFactorisation::MatrixFactorisation(int users, int items, int rank, float l2, float init_scale)
    : users_(users), items_(items), rank_(rank), l2_(l2), init_scale_(init_scale) {
  if (users <= 0 || items <= 0 || rank <= 0) throw std::invalid_argument("mf: need users, items and rank > 0");
}

const std::vector<MetricInfo>& MatrixFactorisation::static_metrics() {
  static const std::vector<MetricInfo> m = {{"test_rmse", false, "root mean squared error on held-out ratings"},
                                            {"test_mae", false, "mean absolute error on held-out ratings"}};
  return m;
}

ParamSet MatrixFactorisation::init(std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  std::normal_distribution<float> dist(0.0f, init_scale_);
  ParamSet p = {{0, Eigen::VectorXf(std::size_t(rank_) * std::size_t(users_))},
                {1, Eigen::VectorXf(std::size_t(rank_) * std::size_t(items_))}};
  for (auto& b : p)
    for (Eigen::Index i = 0; i < b.values.size(); ++i) b.values[i] = dist(rng);
  return p;
}

double MatrixFactorisation::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch,
                                         std::mt19937_64&, ParamSet* update) const {
  *update = zeros_like(p);
  const float* uf = p[0].values.data();
  const float* itf = p[1].values.data();
  float* gu = (*update)[0].values.data();
  float* gi = (*update)[1].values.data();
  const float inv = 1.0f / float(batch.size());
  double loss = 0;
  for (int k : batch) {
    const int u = int(d.x(0, k)), i = int(d.x(1, k));
    Eigen::Map<const Eigen::VectorXf> pu(uf + std::size_t(u) * rank_, rank_), qi(itf + std::size_t(i) * rank_, rank_);
    const float e = pu.dot(qi) - d.target[std::size_t(k)];
    loss += double(e) * e + 0.5 * l2_ * double(pu.squaredNorm() + qi.squaredNorm());
    Eigen::Map<Eigen::VectorXf>(gu + std::size_t(u) * rank_, rank_) += inv * (2.0f * e * qi + l2_ * pu);
    Eigen::Map<Eigen::VectorXf>(gi + std::size_t(i) * rank_, rank_) += inv * (2.0f * e * pu + l2_ * qi);
  }
  return loss * inv;
}

std::vector<double> MatrixFactorisation::evaluate(const ParamSet& p, const Dataset& d) const {
  double se = 0, ae = 0;
  for (Eigen::Index k = 0; k < d.x.cols(); ++k) {
    const int u = int(d.x(0, k)), i = int(d.x(1, k));
    Eigen::Map<const Eigen::VectorXf> pu(p[0].values.data() + std::size_t(u) * rank_, rank_);
    Eigen::Map<const Eigen::VectorXf> qi(p[1].values.data() + std::size_t(i) * rank_, rank_);
    const double e = double(pu.dot(qi)) - d.target[std::size_t(k)];
    se += e * e;
    ae += std::abs(e);
  }
  const double n = std::max<double>(1, double(d.x.cols()));
  return {std::sqrt(se / n), ae / n};
}

}  // namespace geotrain
