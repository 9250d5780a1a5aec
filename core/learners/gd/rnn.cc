#include "core/learners/gd/rnn.h"

#include <cmath>
#include <stdexcept>

#include "core/base/numeric_environment.h"

namespace geotrain {
namespace {
using CMap = Eigen::Map<const Eigen::MatrixXf>;
using MMap = Eigen::Map<Eigen::MatrixXf>;

Eigen::MatrixXf sigmoid(const Eigen::MatrixXf& z) { return (1.0f + (-z.array()).exp()).inverse(); }
}  // namespace

// Per step: the gates (after their nonlinearity, stacked as the pre-activations) and the states.
struct Rnn::Tape {
  std::vector<Eigen::MatrixXf> gates, c, h;  // h[0], c[0]: the zero start
  DenseNet::Tape head;
};

Rnn::Rnn(int features, int steps, int hidden, int classes)
    : steps_(steps),
      inputs_(steps > 0 ? features / steps : 0),
      hidden_(hidden),
      head_({hidden, classes}, {Act::kLinear}, 3) {
  if (steps <= 0 || features % steps != 0 || hidden <= 0)
    throw std::invalid_argument("rnn: features (" + std::to_string(features) + ") must split into " +
                                std::to_string(steps) + " equal steps, and hidden must be positive");
  pin_numeric_environment();
}

ParamSet Rnn::init(std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  const int g = 4 * hidden_;
  ParamSet p = {{0, Eigen::VectorXf(std::size_t(g) * inputs_)},
                {1, Eigen::VectorXf(std::size_t(g) * hidden_)},
                {2, Eigen::VectorXf::Zero(g)}};
  std::normal_distribution<float> wx(0.0f, std::sqrt(1.0f / float(inputs_))),
      wh(0.0f, std::sqrt(1.0f / float(hidden_)));
  for (Eigen::Index i = 0; i < p[0].values.size(); ++i) p[0].values[i] = wx(rng);
  for (Eigen::Index i = 0; i < p[1].values.size(); ++i) p[1].values[i] = wh(rng);
  p[2].values.segment(hidden_, hidden_).setOnes();  // forget gate open at the start
  head_.init(p, rng);
  return p;
}

Eigen::MatrixXf Rnn::forward(const ParamSet& p, const Eigen::MatrixXf& x, Tape* t) const {
  const Eigen::Index b = x.cols(), h = hidden_;
  const CMap wx(p[0].values.data(), 4 * h, inputs_), wh(p[1].values.data(), 4 * h, h);
  t->gates.clear();
  t->c.assign(1, Eigen::MatrixXf::Zero(h, b));
  t->h.assign(1, Eigen::MatrixXf::Zero(h, b));
  for (int s = 0; s < steps_; ++s) {
    Eigen::MatrixXf z = wx * x.middleRows(Eigen::Index(s) * inputs_, inputs_);
    z.noalias() += wh * t->h.back();
    z.colwise() += p[2].values;
    z.topRows(2 * h) = sigmoid(z.topRows(2 * h));
    z.middleRows(2 * h, h) = z.middleRows(2 * h, h).array().tanh();
    z.bottomRows(h) = sigmoid(z.bottomRows(h));
    Eigen::MatrixXf c =
        z.middleRows(h, h).cwiseProduct(t->c.back()) + z.topRows(h).cwiseProduct(z.middleRows(2 * h, h));
    t->h.push_back(z.bottomRows(h).cwiseProduct(Eigen::MatrixXf(c.array().tanh())));
    t->c.push_back(std::move(c));
    t->gates.push_back(std::move(z));
  }
  return head_.forward(p, t->h.back(), &t->head);
}

Eigen::MatrixXf Rnn::logits(const ParamSet& p, const Eigen::MatrixXf& x) const {
  Tape t;
  return forward(p, x, &t);
}

double Rnn::loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                              ParamSet* grad) const {
  *grad = zeros_like(p);
  const Eigen::Index b = x.cols(), h = hidden_;
  Tape t;
  Eigen::MatrixXf z = forward(p, x, &t);
  const double loss = softmax_cross_entropy(z, y);
  Eigen::MatrixXf dh = head_.backward(p, t.head, std::move(z), grad, true);
  Eigen::MatrixXf dc = Eigen::MatrixXf::Zero(h, b), dz(4 * h, b);
  const CMap wh(p[1].values.data(), 4 * h, h);
  MMap dwx((*grad)[0].values.data(), 4 * h, inputs_), dwh((*grad)[1].values.data(), 4 * h, h);
  for (int s = steps_; s-- > 0;) {
    const Eigen::MatrixXf& g = t.gates[std::size_t(s)];
    const auto i = g.topRows(h), f = g.middleRows(h, h), cell = g.middleRows(2 * h, h), o = g.bottomRows(h);
    const Eigen::ArrayXXf tc = t.c[std::size_t(s) + 1].array().tanh();
    dc.array() += dh.array() * o.array() * (1.0f - tc.square());
    dz.bottomRows(h) = (dh.array() * tc * o.array() * (1.0f - o.array())).matrix();
    dz.topRows(h) = (dc.array() * cell.array() * i.array() * (1.0f - i.array())).matrix();
    dz.middleRows(h, h) = (dc.array() * t.c[std::size_t(s)].array() * f.array() * (1.0f - f.array())).matrix();
    dz.middleRows(2 * h, h) = (dc.array() * i.array() * (1.0f - cell.array().square())).matrix();
    dc.array() *= f.array();
    dwx.noalias() += dz * x.middleRows(Eigen::Index(s) * inputs_, inputs_).transpose();
    dwh.noalias() += dz * t.h[std::size_t(s)].transpose();
    (*grad)[2].values += dz.rowwise().sum();
    dh.noalias() = wh.transpose() * dz;
  }
  return loss;
}

double Rnn::train_flops_per_sample() const {
  return 6.0 * 4.0 * hidden_ * (inputs_ + hidden_) * steps_ + head_.train_flops_per_sample();
}

}  // namespace geotrain
