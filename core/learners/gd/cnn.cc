#include "core/learners/gd/cnn.h"

#include <cmath>
#include <stdexcept>

#include "core/base/numeric_environment.h"

namespace geotrain {
namespace {
using CMap = Eigen::Map<const Eigen::MatrixXf>;
using MMap = Eigen::Map<Eigen::MatrixXf>;

int side_of(int features) {
  const int s = int(std::lround(std::sqrt(double(features))));
  if (s * s != features || s % 4 != 0)
    throw std::invalid_argument("cnn: needs square one-channel images whose side is a multiple of 4 (got " +
                                std::to_string(features) + " features)");
  return s;
}
ConvShape conv(int channels, int side, int out) { return {channels, side, side, out, 5, 2}; }
}  // namespace

// Every activation as positions x channels (core/learners/nn/conv.h).
struct Cnn::Tape {
  Eigen::MatrixXf cols1, a1, pooled1, cols2, a2, pooled2, flat;
  std::vector<Eigen::Index> arg1, arg2;
  DenseNet::Tape head;
  // Backward scratch, kept with the tape so a thread reuses its buffers step after step.
  Eigen::MatrixXf dpool2, dz, dcols, dpool1;
};

Cnn::Tape& Cnn::scratch() {
  thread_local Tape t;  // the learner is stateless; each thread keeps its own buffers (no page faults per step)
  return t;
}

Cnn::Cnn(int features, int classes, int conv1, int conv2, int dense)
    : side_(side_of(features)),
      c1_(conv(1, side_, conv1)),
      c2_(conv(conv1, side_ / 2, conv2)),
      head_({conv2 * (side_ / 4) * (side_ / 4), dense, classes}, {Act::kRelu, Act::kLinear}, 4) {
  pin_numeric_environment();
}

ParamSet Cnn::init(std::uint64_t seed) const {
  std::mt19937_64 rng(seed);
  ParamSet p;
  for (const ConvShape* c : {&c1_, &c2_}) {
    std::normal_distribution<float> dist(0.0f, std::sqrt(2.0f / float(c->patch())));
    ParamBlock w{std::uint32_t(p.size()), Eigen::VectorXf(std::size_t(c->out_channels) * std::size_t(c->patch()))};
    for (Eigen::Index i = 0; i < w.values.size(); ++i) w.values[i] = dist(rng);
    p.push_back(std::move(w));
    p.push_back({std::uint32_t(p.size()), Eigen::VectorXf::Zero(c->out_channels)});
  }
  head_.init(p, rng);
  return p;
}

Eigen::MatrixXf Cnn::forward(const ParamSet& p, const Eigen::MatrixXf& x, Tape* t) const {
  return head_.forward(p, convolutions(p, x, t), &t->head);
}

Eigen::MatrixXf Cnn::features(const ParamSet& p, const Eigen::MatrixXf& x, bool through_dense) const {
  Tape& t = scratch();
  const Eigen::MatrixXf& flat = convolutions(p, x, &t);
  if (!through_dense) return flat;
  const DenseNet dense({conv_outputs(), int(p[5].values.size())}, {Act::kRelu}, 4);
  return dense.forward(p, flat);
}

const Eigen::MatrixXf& Cnn::convolutions(const ParamSet& p, const Eigen::MatrixXf& x, Tape* t) const {
  const int batch = int(x.cols());
  const CMap img(x.data(), x.size(), 1);  // (B H W) x 1 channel: a sample's pixels are contiguous
  im2col(img, c1_, batch, &t->cols1);
  t->a1.noalias() = t->cols1 * CMap(p[0].values.data(), c1_.out_channels, c1_.patch()).transpose();
  t->a1.rowwise() += p[1].values.transpose();
  t->a1 = t->a1.cwiseMax(0.0f);
  max_pool2(t->a1, c1_.out_height(), c1_.out_width(), batch, &t->pooled1, &t->arg1);
  im2col(t->pooled1, c2_, batch, &t->cols2);
  t->a2.noalias() = t->cols2 * CMap(p[2].values.data(), c2_.out_channels, c2_.patch()).transpose();
  t->a2.rowwise() += p[3].values.transpose();
  t->a2 = t->a2.cwiseMax(0.0f);
  max_pool2(t->a2, c2_.out_height(), c2_.out_width(), batch, &t->pooled2, &t->arg2);
  // (B positions) x channels -> (channel, position) x B for the dense head.
  const Eigen::Index pos = Eigen::Index(side_ / 4) * (side_ / 4), ch = c2_.out_channels;
  t->flat.resize(ch * pos, batch);
  for (int b = 0; b < batch; ++b)
    for (Eigen::Index c = 0; c < ch; ++c)
      for (Eigen::Index q = 0; q < pos; ++q) t->flat(c * pos + q, b) = t->pooled2(b * pos + q, c);
  return t->flat;
}

Eigen::MatrixXf Cnn::logits(const ParamSet& p, const Eigen::MatrixXf& x) const { return forward(p, x, &scratch()); }

double Cnn::loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                              ParamSet* grad) const {
  *grad = zeros_like(p);
  const int batch = int(x.cols());
  Tape& t = scratch();
  Eigen::MatrixXf z = forward(p, x, &t);
  const double loss = softmax_cross_entropy(z, y);
  const Eigen::MatrixXf dflat = head_.backward(p, t.head, std::move(z), grad, true);
  const Eigen::Index pos = Eigen::Index(side_ / 4) * (side_ / 4), ch = c2_.out_channels;
  t.dpool2.resize(batch * pos, ch);
  for (int b = 0; b < batch; ++b)
    for (Eigen::Index c = 0; c < ch; ++c)
      for (Eigen::Index q = 0; q < pos; ++q) t.dpool2(b * pos + q, c) = dflat(c * pos + q, b);
  max_pool2_backward(t.dpool2, t.arg2, t.a2.rows(), t.a2.cols(), &t.dz);
  t.dz = (t.a2.array() > 0.0f).select(t.dz, 0.0f);
  MMap((*grad)[2].values.data(), c2_.out_channels, c2_.patch()).noalias() = t.dz.transpose() * t.cols2;
  (*grad)[3].values = t.dz.colwise().sum().transpose();
  t.dcols.noalias() = t.dz * CMap(p[2].values.data(), c2_.out_channels, c2_.patch());
  col2im(t.dcols, c2_, batch, &t.dpool1);
  max_pool2_backward(t.dpool1, t.arg1, t.a1.rows(), t.a1.cols(), &t.dz);
  t.dz = (t.a1.array() > 0.0f).select(t.dz, 0.0f);
  MMap((*grad)[0].values.data(), c1_.out_channels, c1_.patch()).noalias() = t.dz.transpose() * t.cols1;
  (*grad)[1].values = t.dz.colwise().sum().transpose();
  return loss;
}

double Cnn::train_flops_per_sample() const {
  const double conv = double(c1_.patch()) * c1_.out_channels * c1_.out_height() * c1_.out_width() +
                      double(c2_.patch()) * c2_.out_channels * c2_.out_height() * c2_.out_width();
  return 6.0 * conv + head_.train_flops_per_sample();
}

}  // namespace geotrain
