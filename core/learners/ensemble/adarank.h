// AdaRank (Xu and Li 2007) on the parameter-server pattern: a ranker
// f(x) = sum_t alpha_t h_t(x) boosted on NDCG@10 directly, its weak rankers
// single features, either sign, as they are (x_j) or cut at a threshold
// ([x_j > theta], the thresholds binned from a merged sample in the first
// round as the tree learners do: core/learners/ensemble/binning.h).
//
// Each later round every worker weighs its queries by exp(-NDCG@10 of f on
// the query) and sends the total weight and, per weak ranker, the weighted
// sum of the NDCG@10 that ranking by it alone gets; these sum up the
// hierarchy. The global server picks the weak ranker with the highest
// weighted NDCG E, other than the last one picked (as RankLib does: else one
// ranker's weight grows forever), and adds it with
// alpha = ln((1 + E) / (1 - E)) / 2.
#pragma once
#include "core/learners/ensemble/binning.h"
#include "core/learners/learner.h"

namespace geotrain {

class AdaRank : public Learner {
 public:
  enum Key : std::uint32_t { kState = 0, kCuts = 1, kRankers = 2, kSketch = 10, kStats = 11 };
  AdaRank(int features, int bins, int sketch_rows, int rounds);
  std::string name() const override { return "adarank"; }
  ParamSet init(std::uint64_t seed) const override;
  std::vector<BlockRule> block_rules() const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  void apply(ParamSet& model, const ParamSet& merged, int contributors) const override;
  bool finished(const ParamSet& p) const override;
  LearnerFootprint footprint(const ParamSet& initial, std::int64_t train_rows) const override {
    return weak_ranker_footprint(Learner::footprint(initial, train_rows), features_, sketch_rows_,
                                 1 + std::uint64_t(rankers()));
  }
  double train_flops_per_sample() const override { return 40.0 * features_ * bins_; }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  static const std::vector<MetricInfo>& static_metrics();
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;

 private:
  // Weak ranker k: feature k / (2 bins), sign by k's parity, bin (k / 2) % bins: 0 the raw
  // feature, b > 0 the threshold at cut b - 1.
  float weak(const ParamSet& p, int k, const Dataset& d, Eigen::Index j) const;
  double score(const ParamSet& p, const Dataset& d, Eigen::Index j) const;
  int rankers() const { return 2 * features_ * bins_; }
  int features_, bins_, sketch_rows_, rounds_;
};

}  // namespace geotrain
