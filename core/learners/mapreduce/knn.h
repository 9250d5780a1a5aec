// k-nearest-neighbour classification on the parameter-server pattern: the
// training set stays where it is, sharded over the workers; the test queries
// travel down, a batch a round, in the pulled model; every worker answers
// each query with the k nearest of its rows as candidates (squared distance,
// label, row), which merge by distance up the hierarchy (Merge::kKSmallest,
// ties by label, then row: the same whatever the sharding); the global server
// votes (the most frequent label among the k; of tied labels, the one with
// the nearer candidate) and keeps
// the predictions in a block it never sends. WAN bytes are queries plus
// candidate lists, never the data. The run ends when every test query is
// answered. Metric: accuracy over the queries answered so far.
#pragma once
#include "core/learners/learner.h"

namespace geotrain {

class Knn : public Learner {
 public:
  enum Key : std::uint32_t { kState = 0, kQueries = 1, kPredictions = 2, kCandidates = 100 };
  // `test` supplies the queries; it must outlive the learner.
  Knn(const Dataset& test, int k, int query_batch);
  std::string name() const override { return "knn"; }
  ParamSet init(std::uint64_t seed) const override;
  std::vector<BlockRule> block_rules() const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  void apply(ParamSet& model, const ParamSet& merged, int contributors) const override;
  std::vector<std::uint32_t> server_only_keys() const override { return {kPredictions}; }
  bool finished(const ParamSet& p) const override;
  // An update is a candidate list of k (distance, label, row) per query of the batch.
  LearnerFootprint footprint(const ParamSet& initial, std::int64_t train_rows) const override;
  double train_flops_per_sample() const override { return 3.0 * features_ * batch_; }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  static const std::vector<MetricInfo>& static_metrics();
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;

  // For each of the n queries at `queries` (features entries each), the k
  // nearest of `rows` of train, as sorted candidates [distance, label, row] x k
  // (missing ones +inf): what a worker sends, and what one machine's brute
  // force over all rows gives.
  std::vector<Eigen::VectorXf> nearest(const float* queries, int n, const Dataset& train,
                                       const std::vector<int>& rows) const;
  // The vote over sorted candidates.
  int vote(const float* candidates) const;

 private:
  // The queries of the batch starting at test column `first` into the model.
  void load_batch(ParamSet& model, int first) const;
  const Dataset& test_;
  int k_, batch_, features_, classes_;
};

}  // namespace geotrain
