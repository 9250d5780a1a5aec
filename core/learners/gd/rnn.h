// A recurrent classifier: an image read row by row as a sequence (28 steps of
// 28 pixels for Fashion-MNIST) through an LSTM, its last hidden state into a
// softmax layer; trained by backpropagation through time. Blocks: 0 the input
// weights (4H x I; gates in the order input, forget, cell, output), 1 the
// recurrent weights (4H x H), 2 the gate biases (the forget gate's start at
// 1), then the output layer (core/learners/nn/dense_net.h).
#pragma once
#include "core/learners/classifier.h"
#include "core/learners/nn/dense_net.h"

namespace geotrain {

class Rnn : public Classifier {
 public:
  // features = steps x inputs per step.
  Rnn(int features, int steps, int hidden, int classes);
  std::string name() const override { return "rnn"; }
  ParamSet init(std::uint64_t seed) const override;
  double loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                           ParamSet* grad) const override;
  Eigen::MatrixXf logits(const ParamSet& p, const Eigen::MatrixXf& x) const override;
  double train_flops_per_sample() const override;

 private:
  struct Tape;
  Eigen::MatrixXf forward(const ParamSet& p, const Eigen::MatrixXf& x, Tape* t) const;
  int steps_, inputs_, hidden_;
  DenseNet head_;
};

}  // namespace geotrain
