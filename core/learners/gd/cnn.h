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

 private:
  struct Tape;
  static Tape& scratch();  // this thread's tape and buffers
  Eigen::MatrixXf forward(const ParamSet& p, const Eigen::MatrixXf& x, Tape* t) const;
  int side_;
  ConvShape c1_, c2_;
  DenseNet head_;
};

}  // namespace geotrain
