// Multi-layer perceptron with ReLU hidden layers and a softmax cross-entropy
// output. With no hidden layer it is multinomial logistic (softmax) regression;
// with l2 > 0 the loss adds l2/2 times the squared weights (not the biases):
// L2-regularised logistic regression (`logreg`) or a weight-decayed MLP.
// Blocks: key 2i is layer i's weight matrix (out x in, column-major), key 2i+1
// its bias.
#pragma once
#include <vector>

#include "core/learners/classifier.h"

namespace geotrain {

class Mlp : public Classifier {
 public:
  Mlp(int inputs, std::vector<int> hidden, int classes, float l2 = 0);
  std::string name() const override { return hidden_.empty() ? (l2_ > 0 ? "logreg" : "softmax") : "mlp"; }
  ParamSet init(std::uint64_t seed) const override;
  double loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                           ParamSet* grad) const override;
  Eigen::MatrixXf logits(const ParamSet& p, const Eigen::MatrixXf& x) const override;
  double train_flops_per_sample() const override;

 private:
  std::vector<int> sizes_;  // inputs, hidden..., classes
  std::vector<int> hidden_;
  float l2_ = 0;
};

}  // namespace geotrain
