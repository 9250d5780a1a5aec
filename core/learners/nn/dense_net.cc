#include "core/learners/nn/dense_net.h"

#include <cmath>
#include <stdexcept>

namespace geotrain {
namespace {

using CMap = Eigen::Map<const Eigen::MatrixXf>;
using MMap = Eigen::Map<Eigen::MatrixXf>;

void activate(Eigen::MatrixXf& z, Act a) {
  switch (a) {
    case Act::kLinear: return;
    case Act::kRelu: z = z.cwiseMax(0.0f); return;
    case Act::kLeakyRelu: z = (z.array() > 0.0f).select(z, 0.2f * z); return;
    case Act::kTanh: z = z.array().tanh(); return;
    case Act::kSigmoid: z = (1.0f + (-z.array()).exp()).inverse(); return;
  }
}

// d(out)/d(z) applied to g, from the activation's output y.
void activation_backward(Eigen::MatrixXf& g, const Eigen::MatrixXf& y, Act a) {
  switch (a) {
    case Act::kLinear: return;
    case Act::kRelu: g = (y.array() > 0.0f).select(g, 0.0f); return;
    case Act::kLeakyRelu: g = (y.array() > 0.0f).select(g, 0.2f * g); return;
    case Act::kTanh: g.array() *= 1.0f - y.array().square(); return;
    case Act::kSigmoid: g.array() *= y.array() * (1.0f - y.array()); return;
  }
}

}  // namespace

DenseNet::DenseNet(std::vector<int> sizes, std::vector<Act> acts, std::size_t first_block)
    : sizes_(std::move(sizes)), acts_(std::move(acts)), first_(first_block) {
  if (sizes_.size() < 2 || acts_.size() + 1 != sizes_.size())
    throw std::invalid_argument("dense net: need sizes and one activation per layer");
  for (int s : sizes_)
    if (s <= 0) throw std::invalid_argument("dense net: layer sizes must be positive");
}

void DenseNet::init(ParamSet& p, std::mt19937_64& rng) const {
  for (std::size_t l = 0; l + 1 < sizes_.size(); ++l) {
    const int in = sizes_[l], out = sizes_[l + 1];
    const float gain = acts_[l] == Act::kRelu || acts_[l] == Act::kLeakyRelu ? 2.0f : 1.0f;
    std::normal_distribution<float> dist(0.0f, std::sqrt(gain / float(in)));
    ParamBlock w{std::uint32_t(first_ + 2 * l), Eigen::VectorXf(std::size_t(in) * std::size_t(out))};
    for (Eigen::Index i = 0; i < w.values.size(); ++i) w.values[i] = dist(rng);
    p.push_back(std::move(w));
    p.push_back({std::uint32_t(first_ + 2 * l + 1), Eigen::VectorXf::Zero(out)});
  }
}

Eigen::MatrixXf DenseNet::forward(const ParamSet& p, const Eigen::MatrixXf& x, Tape* tape) const {
  if (x.rows() != sizes_.front()) throw std::invalid_argument("dense net: input size mismatch");
  Eigen::MatrixXf a = x;
  if (tape) tape->in.clear();
  for (std::size_t l = 0; l + 1 < sizes_.size(); ++l) {
    CMap w(p[first_ + 2 * l].values.data(), sizes_[l + 1], sizes_[l]);
    Eigen::MatrixXf z = w * a;
    z.colwise() += p[first_ + 2 * l + 1].values;
    activate(z, acts_[l]);
    if (tape) tape->in.push_back(std::move(a));
    a = std::move(z);
  }
  if (tape) tape->out = a;
  return a;
}

Eigen::MatrixXf DenseNet::backward(const ParamSet& p, const Tape& tape, Eigen::MatrixXf g, ParamSet* grad,
                                   bool want_dx) const {
  if (grad->size() != p.size()) *grad = zeros_like(p);
  const std::size_t layers = sizes_.size() - 1;
  for (std::size_t l = layers; l-- > 0;) {
    const Eigen::MatrixXf& y = l + 1 == layers ? tape.out : tape.in[l + 1];
    activation_backward(g, y, acts_[l]);
    MMap gw((*grad)[first_ + 2 * l].values.data(), sizes_[l + 1], sizes_[l]);
    gw.noalias() += g * tape.in[l].transpose();
    (*grad)[first_ + 2 * l + 1].values += g.rowwise().sum();
    if (l == 0 && !want_dx) return {};
    CMap w(p[first_ + 2 * l].values.data(), sizes_[l + 1], sizes_[l]);
    g = w.transpose() * g;
  }
  return g;
}

ParamSet init_networks(std::uint64_t seed, std::initializer_list<const DenseNet*> nets) {
  std::mt19937_64 rng(seed);
  ParamSet p;
  for (const DenseNet* n : nets) n->init(p, rng);
  return p;
}

double DenseNet::train_flops_per_sample() const {
  double weights = 0;
  for (std::size_t l = 0; l + 1 < sizes_.size(); ++l) weights += double(sizes_[l]) * sizes_[l + 1];
  return 6.0 * weights;
}

}  // namespace geotrain
