// Gradient-boosted trees on the histogram engine (core/learners/ensemble/hist_trees.h):
// each iteration grows one tree per output of its objective on the loss's
// derivatives at the scores of the trees so far.
//  - `gbdt`: first order (the trees fit the gradients by least squares, leaves
//    are the shrunk mean step), row subsampling.
//  - `xgboost`: second order (gain with lambda, gamma, min_child_weight; Newton
//    leaves), row and per-tree column subsampling.
//  - `gbrank`, `lambdamart`: the second-order booster on ranking losses.
// Gradients and hessians are rounded, stochastically (an unbiased rounding
// drawn per row, iteration and tree), to multiples of a power of two sized so
// that no histogram sum over the training set rounds.
#pragma once
#include <memory>
#include <mutex>
#include <string>

#include "core/learners/ensemble/boost_objective.h"
#include "core/learners/ensemble/hist_trees.h"

namespace geotrain {

struct BoostParams {
  double eta = 0.3;               // shrinkage of every leaf
  double lambda = 1.0;            // L2 on leaf values
  double gamma = 0.0;             // a split's least gain
  double min_child_weight = 1.0;  // a child's least hessian sum (first order: rows)
  double subsample = 1.0;         // rows drawn per iteration
  double colsample = 1.0;         // features drawn per tree
  bool second_order = true;
};

class Booster : public HistTrees {
 public:
  Booster(std::string name, int features, TreeShape shape, BoostParams bp, std::unique_ptr<BoostObjective> objective);
  std::string name() const override { return name_; }
  const std::vector<MetricInfo>& metrics() const override { return metrics_; }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  // Scores (outputs x columns of d) of the complete trees.
  Eigen::MatrixXf predict(const ParamSet& p, const Dataset& d) const;
  // Metrics besides the objective's: trees complete, tree levels grown.
  static std::vector<MetricInfo> with_progress(const std::vector<MetricInfo>& m);

 protected:
  double row_stats(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, const std::vector<int>& rows,
                   int first, int iteration, Eigen::MatrixXf* stats) const override;
  std::vector<int> node_features(std::uint64_t seed, int tree, int node) const override;
  double split_gain(const double* left, const double* right, const double* total) const override;
  double child_weight(const double* sums) const override { return sums[1]; }
  void leaf_values(const double* sums, float* out) const override;

 private:
  struct Scores;
  // The training rows' scores after the first `trees` trees (kept between rounds).
  Eigen::MatrixXf train_scores(const ParamSet& p, const Dataset& d, const std::vector<int>& rows, int trees) const;
  std::string name_;
  BoostParams bp_;
  std::unique_ptr<BoostObjective> objective_;
  std::vector<MetricInfo> metrics_;
  mutable std::mutex scores_mutex_;
  mutable std::shared_ptr<Scores> scores_;
};

}  // namespace geotrain
