// ListNet (Cao et al. 2007): the cross-entropy between the top-one
// probabilities of the grades, softmax(g), and of the scores, softmax(s), per
// query; the mean over queries.
#pragma once
#include "core/learners/gd/ranking_scorer.h"

namespace geotrain {

class ListNet : public RankingScorer {
 public:
  using RankingScorer::RankingScorer;
  std::string name() const override { return "listnet"; }

 protected:
  double query_loss(const float* s, const float* g, int n, float* ds, double* terms) const override;
};

}  // namespace geotrain
