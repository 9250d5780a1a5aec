// Matrix factorisation by gradient descent on rating triples: a rating is
// predicted as p_u . q_i; the loss is the squared error plus l2/2 times the
// squared norms of the factors it touched. Blocks: key 0 the user factors
// (rank x users, column-major), key 1 the item factors. Metrics: held-out RMSE
// (primary) and MAE.
#pragma once
#include "core/learners/learner.h"

namespace geotrain {

class MatrixFactorisation : public Learner {
 public:
  MatrixFactorisation(int users, int items, int rank, float l2, float init_scale);
  std::string name() const override { return "mf"; }
  ParamSet init(std::uint64_t seed) const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  double train_flops_per_sample() const override { return 8.0 * rank_; }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  static const std::vector<MetricInfo>& static_metrics();

 private:
  int users_, items_, rank_;
  float l2_, init_scale_;
};

}  // namespace geotrain
