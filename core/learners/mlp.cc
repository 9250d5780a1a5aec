#include "core/learners/mlp.h"

#include <cmath>
#include <random>
#include <stdexcept>

#include "core/base/numeric_environment.h"

namespace geotrain {
namespace {

using CMap = Eigen::Map<const Eigen::MatrixXf>;
using MMap = Eigen::Map<Eigen::MatrixXf>;

}  // namespace

Mlp::Mlp(int inputs, std::vector<int> hidden, int classes, float l2) : hidden_(std::move(hidden)), l2_(l2) {
  pin_numeric_environment();
  if (inputs <= 0 || classes < 2) throw std::invalid_argument("mlp: need inputs > 0 and classes >= 2");
  sizes_.push_back(inputs);
  for (int h : hidden_) {
    if (h <= 0) throw std::invalid_argument("mlp: hidden layer sizes must be positive");
    sizes_.push_back(h);
  }
  sizes_.push_back(classes);
}

ParamSet Mlp::init(std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  ParamSet p;
  for (std::size_t l = 0; l + 1 < sizes_.size(); ++l) {
    const int in = sizes_[l], out = sizes_[l + 1];
    const bool last = l + 2 == sizes_.size();
    // He initialisation before ReLU, Glorot for the output layer.
    std::normal_distribution<float> dist(0.0f, last ? std::sqrt(2.0f / float(in + out)) : std::sqrt(2.0f / float(in)));
    ParamBlock w{std::uint32_t(2 * l), Eigen::VectorXf(std::size_t(in) * out)};
    for (Eigen::Index i = 0; i < w.values.size(); ++i) w.values[i] = dist(rng);
    p.push_back(std::move(w));
    p.push_back({std::uint32_t(2 * l + 1), Eigen::VectorXf::Zero(out)});
  }
  return p;
}

Eigen::MatrixXf Mlp::logits(const ParamSet& p, const Eigen::MatrixXf& x) const {
  Eigen::MatrixXf a = x;
  const std::size_t layers = sizes_.size() - 1;
  for (std::size_t l = 0; l < layers; ++l) {
    CMap w(p[2 * l].values.data(), sizes_[l + 1], sizes_[l]);
    Eigen::MatrixXf z = w * a;
    z.colwise() += p[2 * l + 1].values;
    a = l + 1 < layers ? Eigen::MatrixXf(z.cwiseMax(0.0f)) : z;
  }
  return a;
}

double Mlp::loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                              ParamSet* grad) const {
  const std::size_t layers = sizes_.size() - 1;
  // Forward, keeping each layer's input activation.
  std::vector<Eigen::MatrixXf> acts;
  acts.reserve(layers + 1);
  acts.push_back(x);
  Eigen::MatrixXf z;
  for (std::size_t l = 0; l < layers; ++l) {
    CMap w(p[2 * l].values.data(), sizes_[l + 1], sizes_[l]);
    z = w * acts.back();
    z.colwise() += p[2 * l + 1].values;
    if (l + 1 < layers) acts.push_back(z.cwiseMax(0.0f));
  }
  double loss = softmax_cross_entropy(z, y);  // z becomes dLoss/dLogits
  if (grad->size() != p.size()) *grad = zeros_like(p);
  for (std::size_t l = layers; l-- > 0;) {
    MMap gw((*grad)[2 * l].values.data(), sizes_[l + 1], sizes_[l]);
    gw.noalias() = z * acts[l].transpose();
    (*grad)[2 * l + 1].values = z.rowwise().sum();
    if (l == 0) break;
    CMap w(p[2 * l].values.data(), sizes_[l + 1], sizes_[l]);
    Eigen::MatrixXf back = w.transpose() * z;
    z = (acts[l].array() > 0.0f).select(back, 0.0f);
  }
  if (l2_ > 0)  // + l2/2 |W|^2 over the weight matrices (not the biases)
    for (std::size_t l = 0; l < layers; ++l) {
      const Eigen::VectorXf& w = p[2 * l].values;
      loss += 0.5 * double(l2_) * double(w.squaredNorm());
      (*grad)[2 * l].values += l2_ * w;
    }
  return loss;
}

double Mlp::train_flops_per_sample() const {
  double weights = 0;
  for (std::size_t l = 0; l + 1 < sizes_.size(); ++l) weights += double(sizes_[l]) * sizes_[l + 1];
  return 6.0 * weights;  // 2 forward + 4 backward multiply-adds per weight
}

}  // namespace geotrain
