#include "core/learners/classifier.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/base/parallel.h"

namespace geotrain {

double Classifier::local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch,
                                std::mt19937_64&, ParamSet* update) const {
  Eigen::MatrixXf x;
  std::vector<int> y;
  gather(train, batch, &x, &y);
  return loss_and_gradient(p, x, y, update);
}

double softmax_cross_entropy(Eigen::MatrixXf& z, const std::vector<int>& y) {
  double loss = 0;
  for (Eigen::Index i = 0; i < z.cols(); ++i) {  // d/dz = softmax - onehot
    auto col = z.col(i);
    col.array() -= col.maxCoeff();
    col = col.array().exp();
    col /= col.sum();
    loss -= std::log(std::max(col(y[std::size_t(i)]), 1e-12f));
    col(y[std::size_t(i)]) -= 1.0f;
  }
  z /= float(z.cols());
  return loss / double(z.cols());
}

const std::vector<MetricInfo>& classifier_metrics() {
  static const std::vector<MetricInfo> m = {{"test_accuracy", true, "test-set accuracy"},
                                            {"test_loss", false, "test-set mean cross-entropy"}};
  return m;
}

const std::vector<MetricInfo>& Classifier::metrics() const { return classifier_metrics(); }

std::vector<double> Classifier::evaluate(const ParamSet& p, const Dataset& test) const {
  const Evaluation e = evaluate_classifier(*this, p, test);
  return {e.accuracy, e.loss};
}

Evaluation evaluate_classifier(const Classifier& m, const ParamSet& p, const Dataset& d, int max_samples) {
  const int n = max_samples > 0 ? std::min(max_samples, d.size()) : d.size();
  constexpr int kChunk = 2048;
  Evaluation e;
  if (n == 0) return e;
  // Chunks may run on several threads; each keeps its samples' terms, summed
  // below in sample order, so the result is the same however they ran.
  const int chunks = (n + kChunk - 1) / kChunk;
  std::vector<int> correct(std::size_t(chunks), 0);
  std::vector<double> terms(static_cast<std::size_t>(n));
  run_pieces(chunks, [&](int c) {
    const int lo = c * kChunk, cnt = std::min(kChunk, n - lo);
    const Eigen::MatrixXf z = m.logits(p, d.x.middleCols(lo, cnt));
    for (int i = 0; i < cnt; ++i) {
      Eigen::Index best;
      const float mx = z.col(i).maxCoeff(&best);
      if (best == d.y[lo + i]) ++correct[std::size_t(c)];
      const double lse = mx + std::log((z.col(i).array() - mx).exp().sum());
      terms[std::size_t(lo + i)] = lse - z(d.y[lo + i], i);
    }
  });
  int right = 0;
  for (int c : correct) right += c;
  double loss = 0;
  for (double t : terms) loss += t;
  e.accuracy = double(right) / n;
  e.loss = loss / n;
  return e;
}

}  // namespace geotrain
