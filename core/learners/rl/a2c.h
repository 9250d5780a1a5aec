// Advantage actor-critic on cart-pole, in its Monte-Carlo form (REINFORCE
// with a learned baseline): per step a worker plays one episode in each
// environment of its batch with the current policy (actions sampled from the
// worker's own random stream), and pushes the gradient of
//   -mean_t log pi(a_t | s_t) A_t  +  value_weight mean_t (V(s_t) - G_t)^2 / 2
//   - entropy_weight mean_t H(pi(. | s_t)),
// with G_t the discounted return, A_t = G_t - V(s_t) normalised over the
// batch. Blocks: the actor (4 -> hidden tanh -> 2 logits) then the critic
// (4 -> hidden tanh -> 1, predicting G / 100). Metric: the greedy policy's
// mean return over the fixed evaluation episodes (primary; at most 500).
#pragma once
#include "core/learners/learner.h"
#include "core/learners/nn/dense_net.h"

namespace geotrain {

struct A2cParams {
  int hidden = 64;
  double gamma = 0.99, value_weight = 0.5, entropy_weight = 0.01;
};

class A2c : public Learner {
 public:
  explicit A2c(A2cParams p);
  std::string name() const override { return "a2c"; }
  ParamSet init(std::uint64_t seed) const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  double train_flops_per_sample() const override;  // one episode of a typical 200 steps
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  static const std::vector<MetricInfo>& static_metrics();
  // The greedy policy's return in the evaluation episode with this index.
  int greedy_return(const ParamSet& p, int episode) const;

 private:
  A2cParams p_;
  DenseNet actor_, critic_;
};

}  // namespace geotrain
