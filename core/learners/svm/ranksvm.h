// RankSVM: the hinge loss max(0, 1 - w . (z_a - z_b)) of every pair of documents
// of a query where a is graded above b, trained by CoCoA+
// (core/learners/svm/cocoa.h), usually on random Fourier features; a query's
// pairs are one unit, so they stay on one worker. Metrics: NDCG@10 on held-out
// queries (primary), the duality gap and the primal objective.
#pragma once
#include "core/learners/svm/cocoa.h"

namespace geotrain {

class RankSvm : public Cocoa {
 public:
  RankSvm(const Dataset& train, CocoaParams cp);
  std::string name() const override { return "ranksvm"; }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;

 protected:
  void coords_of(const Dataset& d, int unit, std::vector<DualCoord>* out) const override;

 private:
  RankSvm(const Dataset& train, CocoaParams cp, double pairs);  // pairs: the training set's, counted once
};

}  // namespace geotrain
