#include "core/learners/svm/svm.h"

namespace geotrain {

std::vector<MetricInfo> Svm::static_metrics() {
  return with_certificate({{"test_accuracy", true, "share of test samples whose largest w_c . z is their class's"}});
}

Svm::Svm(const Dataset& train, CocoaParams cp)
    : Cocoa(static_metrics(), train.features(), train.classes, DualLoss{}, cp, double(train.size()),
            double(train.classes)),
      classes_(train.classes) {}

void Svm::coords_of(const Dataset& d, int unit, std::vector<DualCoord>* out) const {
  for (int c = 0; c < classes_; ++c) out->push_back({unit, -1, c, d.y[std::size_t(unit)] == c ? 1.0f : -1.0f});
}

std::vector<double> Svm::evaluate(const ParamSet& p, const Dataset& test) const {
  int right = 0;
  const Eigen::Index chunk = 2000;  // bounded memory on large test sets
  for (Eigen::Index lo = 0; lo < test.x.cols(); lo += chunk) {
    const Eigen::Index n = std::min(chunk, test.x.cols() - lo);
    const Eigen::MatrixXf s = scores(p, test.x.middleCols(lo, n));
    for (Eigen::Index j = 0; j < n; ++j) {
      Eigen::Index k;
      s.col(j).maxCoeff(&k);
      right += int(k) == test.y[std::size_t(lo + j)];
    }
  }
  std::vector<double> m = {test.x.cols() ? double(right) / double(test.x.cols()) : 0.0};
  append_certificate(p, &m);
  return m;
}

}  // namespace geotrain
