// A convolutional classifier for square one-channel images (Fashion-MNIST):
// two 5x5 convolutions (padding 2, ReLU, 2x2 max pooling each), a dense ReLU
// layer and a softmax output. Blocks: 0 and 1 the first convolution's weights
// (out x in k k) and bias, 2 and 3 the second's, then the dense layers
// (core/learners/nn/dense_net.h).
#pragma once
#include "core/learners/classifier.h"
#include "core/learners/nn/conv.h"
#include "core/learners/nn/dense_net.h"

namespace geotrain {

class Cnn : public Classifier {
 public:
  // features: side x side pixels, side a multiple of 4.
  Cnn(int features, int classes, int conv1, int conv2, int dense);
  std::string name() const override { return "cnn"; }
  ParamSet init(std::uint64_t seed) const override;
  double loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                           ParamSet* grad) const override;
  Eigen::MatrixXf logits(const ParamSet& p, const Eigen::MatrixXf& x) const override;
  double train_flops_per_sample() const override;
  // Inference up to a layer (transfer learning's frozen part): the flattened
  // activations after the convolutions (conv2 x positions per sample), or after
  // the dense ReLU layer too.
  Eigen::MatrixXf features(const ParamSet& p, const Eigen::MatrixXf& x, bool through_dense) const;
  int conv_outputs() const { return c2_.out_channels * (side_ / 4) * (side_ / 4); }

 private:
  struct Tape;
  const Eigen::MatrixXf& convolutions(const ParamSet& p, const Eigen::MatrixXf& x, Tape* t) const;  // t->flat
  static Tape& scratch();  // this thread's tape and buffers
  Eigen::MatrixXf forward(const ParamSet& p, const Eigen::MatrixXf& x, Tape* t) const;
  int side_;
  ConvShape c1_, c2_;
  DenseNet head_;
};

}  // namespace geotrain
