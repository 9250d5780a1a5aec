// AdaRank (Xu and Li 2007) on the parameter-server pattern: a linear ranker
// f(x) = sum_t alpha_t s_t x_{j_t} built from single features (either sign)
// as weak rankers, boosting NDCG@10 directly.
//
// Each round every worker weighs its queries by exp(-NDCG@10 of f on the
// query) and sends the total weight and, per signed feature, the weighted sum
// of the NDCG@10 that ranking by that feature alone gets; these sum up the
// hierarchy. The global server picks the signed feature with the highest
// weighted NDCG E, other than the last one picked, and adds it with
// alpha = ln((1 + E) / (1 - E)) / 2.
#pragma once
#include "core/learners/learner.h"

namespace geotrain {

class AdaRank : public Learner {
 public:
  enum Key : std::uint32_t { kState = 0, kWeights = 1, kStats = 10 };
  AdaRank(int features, int rounds);
  std::string name() const override { return "adarank"; }
  ParamSet init(std::uint64_t seed) const override;
  std::vector<BlockRule> block_rules() const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  void apply(ParamSet& model, const ParamSet& merged, int contributors) const override;
  bool finished(const ParamSet& p) const override;
  double train_flops_per_sample() const override { return 40.0 * features_; }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  static const std::vector<MetricInfo>& static_metrics();
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;

 private:
  int features_, rounds_;
};

}  // namespace geotrain
