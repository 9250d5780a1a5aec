#include "core/learners/svm/feature_map.h"

#include <cmath>
#include <random>

namespace geotrain {

FeatureMap::FeatureMap(int inputs, int rff, double gamma, std::uint64_t seed) : inputs_(inputs), rff_(rff) {
  if (rff_ <= 0) return;
  std::mt19937_64 rng(seed * 0x9e3779b97f4a7c15ULL + 101);
  std::normal_distribution<float> normal(0.0f, float(std::sqrt(2.0 * gamma)));
  std::uniform_real_distribution<float> angle(0.0f, float(2 * 3.14159265358979323846));
  omega_.resize(rff_, inputs_);
  for (Eigen::Index i = 0; i < omega_.size(); ++i) omega_.data()[i] = normal(rng);
  phase_.resize(rff_);
  for (int i = 0; i < rff_; ++i) phase_[i] = angle(rng);
}

void FeatureMap::map(const float* x, float* z) const {
  const Eigen::Map<const Eigen::VectorXf> in(x, inputs_);
  if (rff_ <= 0) {
    Eigen::Map<Eigen::VectorXf>(z, inputs_) = in;
    z[inputs_] = 1.0f;
    return;
  }
  const float scale = std::sqrt(2.0f / float(rff_));
  Eigen::Map<Eigen::VectorXf> out(z, rff_);
  out.noalias() = omega_ * in;
  for (int i = 0; i < rff_; ++i) z[i] = scale * std::cos(z[i] + phase_[i]);
  z[rff_] = 1.0f;
}

Eigen::MatrixXf FeatureMap::map(const Eigen::MatrixXf& x) const {
  Eigen::MatrixXf z(dims(), x.cols());
  for (Eigen::Index j = 0; j < x.cols(); ++j) map(x.col(j).data(), z.col(j).data());
  return z;
}

}  // namespace geotrain
