// Support-vector regression: the epsilon-insensitive loss max(0, |w . z - y| - eps)
// on regression data, trained by CoCoA+ (core/learners/svm/cocoa.h), usually on
// random Fourier features (an RBF-kernel SVR). Metrics: test RMSE (primary),
// the duality gap and the primal objective.
#pragma once
#include "core/learners/svm/cocoa.h"

namespace geotrain {

class Svr : public Cocoa {
 public:
  Svr(const Dataset& train, CocoaParams cp, float eps);
  std::string name() const override { return "svr"; }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  static std::vector<MetricInfo> static_metrics();

 protected:
  void coords_of(const Dataset& d, int unit, std::vector<DualCoord>* out) const override;
};

}  // namespace geotrain
