// Online learning on the parameter-server pattern: multinomial logistic
// regression trained as its data arrives. Each worker reads its shard once,
// in order (LearnerCaps::stream), a batch a round; before learning from a
// batch it scores it with the current weights (progressive validation: every
// sample is judged before it is learned from), then sends the batch's summed
// gradient and those scores, which sum up the hierarchy. The global server
// updates per-coordinate state it keeps for itself and publishes the weights:
//  - FTRL-Proximal (McMahan et al. 2013): per-coordinate learning rates
//    alpha / (beta + sqrt(n_i)), L1 (l1) setting weights exactly to zero and
//    L2 (l2); a sparse model travels sparse through the `sparse` pull codec;
//  - FTML (Zheng and Kwok 2017): Follow the Moving Leader, Adam-like moving
//    averages of the gradient and its square (beta1, beta2, eta).
// The run ends when every worker has read its whole shard.
#pragma once
#include "core/learners/learner.h"

namespace geotrain {

struct OnlineParams {
  bool ftml = false;
  double alpha = 0.1, beta = 1.0, l1 = 0.0, l2 = 0.0;          // FTRL
  double eta = 0.002, beta1 = 0.6, beta2 = 0.999, eps = 1e-8;  // FTML
};

class OnlineLinear : public Learner {
 public:
  enum Key : std::uint32_t { kWeights = 0, kState = 1, kZ = 2, kN = 3, kD = 4, kGrad = 10, kScores = 11 };
  OnlineLinear(int features, int classes, int train_samples, OnlineParams op);
  std::string name() const override { return op_.ftml ? "ftml" : "ftrl"; }
  ParamSet init(std::uint64_t seed) const override;
  std::vector<BlockRule> block_rules() const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  void apply(ParamSet& model, const ParamSet& merged, int contributors) const override;
  std::vector<std::uint32_t> server_only_keys() const override { return {kZ, kN, kD}; }
  bool finished(const ParamSet& p) const override;
  double train_flops_per_sample() const override { return 4.0 * features_ * classes_; }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  static const std::vector<MetricInfo>& static_metrics();
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;

 private:
  int features_, classes_, train_;
  OnlineParams op_;
};

}  // namespace geotrain
