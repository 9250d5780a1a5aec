// RankNet (Burges et al. 2005): for every pair of documents of a query with
// different grades, the logistic loss log(1 + exp(-(s_i - s_j))) of scoring
// the more relevant one i above j; the mean over pairs.
#pragma once
#include "core/learners/gd/ranking_scorer.h"

namespace geotrain {

class RankNet : public RankingScorer {
 public:
  using RankingScorer::RankingScorer;
  std::string name() const override { return "ranknet"; }

 protected:
  double query_loss(const float* s, const float* g, int n, float* ds, double* terms) const override;
};

}  // namespace geotrain
