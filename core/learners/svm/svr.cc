#include "core/learners/svm/svr.h"

#include <cmath>

namespace geotrain {

std::vector<MetricInfo> Svr::static_metrics() {
  return with_certificate({{"test_rmse", false, "root mean squared error of the predictions on the test set"}});
}

Svr::Svr(const Dataset& train, CocoaParams cp, float eps)
    : Cocoa(static_metrics(), train.features(), 1, DualLoss{true, eps}, cp, double(train.size()), 1.0) {}

void Svr::coords_of(const Dataset& d, int unit, std::vector<DualCoord>* out) const {
  out->push_back({unit, -1, 0, d.target[std::size_t(unit)]});
}

std::vector<double> Svr::evaluate(const ParamSet& p, const Dataset& test) const {
  const Eigen::MatrixXf s = scores(p, test.x);
  double se = 0;
  for (Eigen::Index j = 0; j < s.cols(); ++j) {
    const double e = double(s(0, j)) - double(test.target[std::size_t(j)]);
    se += e * e;
  }
  std::vector<double> m = {s.cols() ? std::sqrt(se / double(s.cols())) : 0.0};
  append_certificate(p, &m);
  return m;
}

}  // namespace geotrain
