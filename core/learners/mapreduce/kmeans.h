// k-means by Lloyd's iterations on the parameter-server pattern: the model is
// the centroids (block 0, k x d, column-major) and each cluster's size at the
// last iteration (block 1); a worker's update assigns its batch (its whole
// shard when the batch is at least the shard) to the nearest centroids and
// sends per-cluster sums (block 0) and counts (block 1), which sum exactly up
// any hierarchy; the global server sets each centroid to its cluster's mean
// (Apply::kLearner; an empty cluster keeps its centroid). Each round must
// merge every worker's answer to the same centroids, and the sums must arrive
// exactly: bsp only, lossless codecs only. Centroids start by k-means++ over
// the training set. Metric: inertia per sample (the mean squared distance to
// the nearest centroid) on the test set, primary, lower is better.
#pragma once
#include "core/learners/learner.h"

namespace geotrain {

class KMeans : public Learner {
 public:
  // `train` seeds the centroids (k-means++); it must outlive the learner.
  // local_iterations > 1: the local-steps variant (like HFA's local steps): a worker first runs that many - 1
  // Lloyd iterations on its own shard alone, from the global centroids, then sends the sums and counts of its
  // shard's assignment to its local centroids; fewer WAN rounds to the same inertia, no longer exactly Lloyd's.
  KMeans(const Dataset& train, int k, int local_iterations = 1);
  std::string name() const override { return "kmeans"; }
  ParamSet init(std::uint64_t seed) const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  void apply(ParamSet& model, const ParamSet& merged, int contributors) const override;
  double train_flops_per_sample() const override { return 3.0 * k_ * dims_ * local_; }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  static const std::vector<MetricInfo>& static_metrics();

 private:
  // The nearest centroid to column i of x, and its squared distance.
  std::pair<int, float> nearest(const Eigen::MatrixXf& centroids, const Eigen::MatrixXf& x, Eigen::Index i) const;
  const Dataset& train_;
  int k_, dims_, local_;
};

}  // namespace geotrain
