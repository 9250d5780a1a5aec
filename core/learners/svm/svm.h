// Linear SVM, one-vs-rest, on labelled data: one hinge-loss problem per class
// (label +1 for the class, -1 for the rest), trained together by CoCoA+
// (core/learners/svm/cocoa.h); a sample is predicted the class whose w_c . z is
// largest. Metrics: test accuracy (primary), the duality gap and the primal
// objective.
#pragma once
#include "core/learners/svm/cocoa.h"

namespace geotrain {

class Svm : public Cocoa {
 public:
  Svm(const Dataset& train, CocoaParams cp);
  std::string name() const override { return "svm"; }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  static std::vector<MetricInfo> static_metrics();

 protected:
  void coords_of(const Dataset& d, int unit, std::vector<DualCoord>* out) const override;

 private:
  int classes_;
};

}  // namespace geotrain
