// What a gradient-boosted ensemble minimises: per row and output the first and
// second derivative of its loss at the current scores, and how its scores are
// judged. Softmax for classification (one tree per class per iteration),
// LambdaMART's and GBrank's pairwise losses for ranking (one tree).
#pragma once
#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "core/data/dataset.h"
#include "core/learners/learner.h"

namespace geotrain {

class BoostObjective {
 public:
  virtual ~BoostObjective() = default;
  virtual int outputs() const = 0;  // scores per row: trees grown per iteration
  // Bounds on |g| and h per row: values beyond are clipped (they size the
  // fixed-point units that make histogram sums exact).
  virtual double gradient_bound() const = 0;
  virtual double hessian_bound() const = 0;
  // g and h (outputs x rows) at `scores` (outputs x rows) of `rows`, the rows
  // of the units `batch` (queries for ranking, in order). Returns the loss sum.
  virtual double gradients(const Dataset& d, const std::vector<int>& batch, const std::vector<int>& rows,
                           const Eigen::MatrixXf& scores, Eigen::MatrixXf* g, Eigen::MatrixXf* h) const = 0;
  virtual const std::vector<MetricInfo>& metrics() const = 0;
  // The metrics of scores (outputs x every column of test).
  virtual std::vector<double> evaluate(const Eigen::MatrixXf& scores, const Dataset& test) const = 0;
};

// Multinomial log-loss over `classes` scores; h = 2 p (1 - p) as XGBoost's softprob.
std::unique_ptr<BoostObjective> softmax_objective(int classes);
// LambdaMART: RankNet's pairwise log-loss weighted by |delta NDCG| of swapping the pair.
std::unique_ptr<BoostObjective> lambdamart_objective();
// GBrank: the squared hinge (tau - (s_i - s_j))^2 / 2 of every pair ranked wrongly or within tau.
std::unique_ptr<BoostObjective> gbrank_objective(double tau);

}  // namespace geotrain
