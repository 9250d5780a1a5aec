#include "core/learners/gd/cnn.h"

#include <cmath>
#include <stdexcept>

#include "core/learners/fixed_blocking.h"

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

struct Cnn::Tape {
  Eigen::MatrixXf cols1, a1, cols2, a2;
  std::vector<Eigen::Index> arg1, arg2;
  DenseNet::Tape head;
};

Cnn::Cnn(int features, int classes, int conv1, int conv2, int dense)
    : side_(side_of(features)),
      c1_(conv(1, side_, conv1)),
      c2_(conv(conv1, side_ / 2, conv2)),
      head_({conv2 * (side_ / 4) * (side_ / 4), dense, classes}, {Act::kRelu, Act::kLinear}, 4) {
  use_fixed_matrix_blocking();
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
  const int batch = int(x.cols());
  const CMap img(x.data(), 1, x.size());  // 1 channel x (B H W): a sample's pixels are contiguous
  Eigen::MatrixXf z, pooled1, pooled2;
  im2col(img, c1_, batch, &t->cols1);
  z.noalias() = CMap(p[0].values.data(), c1_.out_channels, c1_.patch()) * t->cols1;
  z.colwise() += p[1].values;
  t->a1 = z.cwiseMax(0.0f);
  max_pool2(t->a1, c1_.out_height(), c1_.out_width(), batch, &pooled1, &t->arg1);
  im2col(pooled1, c2_, batch, &t->cols2);
  z.noalias() = CMap(p[2].values.data(), c2_.out_channels, c2_.patch()) * t->cols2;
  z.colwise() += p[3].values;
  t->a2 = z.cwiseMax(0.0f);
  max_pool2(t->a2, c2_.out_height(), c2_.out_width(), batch, &pooled2, &t->arg2);
  // Channels x (B positions) -> (channel, position) x B for the dense head.
  const Eigen::Index pos = Eigen::Index(side_ / 4) * (side_ / 4), ch = c2_.out_channels;
  Eigen::MatrixXf flat(ch * pos, batch);
  for (int b = 0; b < batch; ++b)
    for (Eigen::Index c = 0; c < ch; ++c)
      for (Eigen::Index q = 0; q < pos; ++q) flat(c * pos + q, b) = pooled2(c, b * pos + q);
  return head_.forward(p, flat, &t->head);
}

Eigen::MatrixXf Cnn::logits(const ParamSet& p, const Eigen::MatrixXf& x) const {
  Tape t;
  return forward(p, x, &t);
}

double Cnn::loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                              ParamSet* grad) const {
  *grad = zeros_like(p);
  const int batch = int(x.cols());
  Tape t;
  Eigen::MatrixXf z = forward(p, x, &t);
  double loss = 0;
  for (int i = 0; i < batch; ++i) {  // softmax cross-entropy: d/dz = softmax - onehot
    auto col = z.col(i);
    col.array() -= col.maxCoeff();
    col = col.array().exp();
    col /= col.sum();
    loss -= std::log(std::max(col(y[std::size_t(i)]), 1e-12f));
    col(y[std::size_t(i)]) -= 1.0f;
  }
  z /= float(batch);
  const Eigen::MatrixXf dflat = head_.backward(p, t.head, std::move(z), grad, true);
  const Eigen::Index pos = Eigen::Index(side_ / 4) * (side_ / 4), ch = c2_.out_channels;
  Eigen::MatrixXf dpool2(ch, batch * pos);
  for (int b = 0; b < batch; ++b)
    for (Eigen::Index c = 0; c < ch; ++c)
      for (Eigen::Index q = 0; q < pos; ++q) dpool2(c, b * pos + q) = dflat(c * pos + q, b);
  Eigen::MatrixXf dz, dcols, dpool1;
  max_pool2_backward(dpool2, t.arg2, t.a2.rows(), t.a2.cols(), &dz);
  dz = (t.a2.array() > 0.0f).select(dz, 0.0f);
  MMap((*grad)[2].values.data(), c2_.out_channels, c2_.patch()).noalias() = dz * t.cols2.transpose();
  (*grad)[3].values = dz.rowwise().sum();
  dcols.noalias() = CMap(p[2].values.data(), c2_.out_channels, c2_.patch()).transpose() * dz;
  col2im(dcols, c2_, batch, &dpool1);
  max_pool2_backward(dpool1, t.arg1, t.a1.rows(), t.a1.cols(), &dz);
  dz = (t.a1.array() > 0.0f).select(dz, 0.0f);
  MMap((*grad)[0].values.data(), c1_.out_channels, c1_.patch()).noalias() = dz * t.cols1.transpose();
  (*grad)[1].values = dz.rowwise().sum();
  return loss / batch;
}

double Cnn::train_flops_per_sample() const {
  const double conv = double(c1_.patch()) * c1_.out_channels * c1_.out_height() * c1_.out_width() +
                      double(c2_.patch()) * c2_.out_channels * c2_.out_height() * c2_.out_width();
  return 6.0 * conv + head_.train_flops_per_sample();
}

}  // namespace geotrain
