// Multi-layer perceptron with ReLU hidden layers and a softmax cross-entropy
// output. With no hidden layer it is multinomial logistic (softmax) regression.
// Blocks: key 2i is layer i's weight matrix (out x in, column-major), key 2i+1
// its bias.
#pragma once
#include <vector>

#include "core/models/model.h"

namespace geotrain {

class Mlp : public Model {
 public:
  Mlp(int inputs, std::vector<int> hidden, int classes);
  std::string name() const override { return hidden_.empty() ? "softmax" : "mlp"; }
  ParamSet init(std::uint64_t seed) const override;
  double loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                           ParamSet* grad) const override;
  Eigen::MatrixXf logits(const ParamSet& p, const Eigen::MatrixXf& x) const override;
  double train_flops_per_sample() const override;

 private:
  std::vector<int> sizes_;  // inputs, hidden..., classes
  std::vector<int> hidden_;
};

}  // namespace geotrain
