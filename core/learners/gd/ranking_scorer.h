// What RankNet and ListNet share: a scoring network (features -> hidden ReLU
// layers -> one score) applied to every document of a batch of queries, its
// metric (NDCG@10 on held-out queries, primary), and the pass that turns a
// list loss's d(loss)/d(score) into the network's gradient. A subclass gives
// that loss for one query.
#pragma once
#include "core/learners/learner.h"
#include "core/learners/nn/dense_net.h"

namespace geotrain {

class RankingScorer : public Learner {
 public:
  RankingScorer(int features, const std::vector<int>& hidden);
  ParamSet init(std::uint64_t seed) const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  double train_flops_per_sample() const override;  // per query of 20 documents
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  static const std::vector<MetricInfo>& static_metrics();
  // Scores of every document of d (test data: all its columns).
  std::vector<float> scores(const ParamSet& p, const Dataset& d) const;

 protected:
  // One query's loss for scores s and grades g (n documents); writes d(loss)/d(s) into ds.
  // Returns the loss and, in *terms, how many terms it averages (pairs or 1).
  virtual double query_loss(const float* s, const float* g, int n, float* ds, double* terms) const = 0;

 private:
  DenseNet net_;
};

}  // namespace geotrain
