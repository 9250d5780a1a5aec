// RankBoost (Freund, Iyer, Schapire and Singer 2003) on the parameter-server
// pattern: a ranker H(x) = sum_t alpha_t [x_{f_t} > theta_t] of threshold weak
// rankers, one added per round.
//
// Round 0 bins the features from a merged sample, as the tree learners do
// (core/learners/ensemble/binning.h); the thresholds are the cuts. Each later
// round every worker weighs the pairs of its queries (a better document over a
// worse one) by D(better, worse) = exp(H(worse) - H(better)) and sends, per
// feature and bin, the sum over documents of pi(d) (the weight of pairs d wins
// minus of pairs it loses), and Z, the total weight; these sum up the
// hierarchy. The global server picks the threshold with the largest |r|,
// r = sum_{bin(d) > b} pi(d) / Z, and adds it with alpha = ln((1 + r) / (1 - r)) / 2.
#pragma once
#include "core/learners/ensemble/binning.h"
#include "core/learners/learner.h"

namespace geotrain {

class RankBoost : public Learner {
 public:
  enum Key : std::uint32_t { kState = 0, kCuts = 1, kRankers = 2, kSketch = 10, kStats = 11 };
  RankBoost(int features, int bins, int sketch_rows, int rounds);
  std::string name() const override { return "rankboost"; }
  ParamSet init(std::uint64_t seed) const override;
  std::vector<BlockRule> block_rules() const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  void apply(ParamSet& model, const ParamSet& merged, int contributors) const override;
  bool finished(const ParamSet& p) const override;
  LearnerFootprint footprint(const ParamSet& initial, std::int64_t train_rows) const override {
    return weak_ranker_footprint(Learner::footprint(initial, train_rows), features_, sketch_rows_,
                                 1 + std::uint64_t(features_) * std::uint64_t(bins_));
  }
  double train_flops_per_sample() const override { return 20.0 * features_; }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  static const std::vector<MetricInfo>& static_metrics();
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;

 private:
  // H of column j of d.
  double score(const ParamSet& p, const Dataset& d, Eigen::Index j) const;
  int features_, bins_, sketch_rows_, rounds_;
};

}  // namespace geotrain
