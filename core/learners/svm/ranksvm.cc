#include "core/learners/svm/ranksvm.h"

#include "core/learners/metrics.h"

namespace geotrain {
namespace {
// Pairs (a graded above b) of query q of d.
void pairs_of(const Dataset& d, int q, std::vector<DualCoord>* out) {
  const int lo = d.query_start[std::size_t(q)], hi = d.query_start[std::size_t(q) + 1];
  for (int a = lo; a < hi; ++a)
    for (int b = lo; b < hi; ++b)
      if (d.target[std::size_t(a)] > d.target[std::size_t(b)]) out->push_back({a, b, 0, 1.0f});
}

double pair_count(const Dataset& d) {
  std::vector<DualCoord> pairs;
  double n = 0;
  for (int q = 0; q < d.size(); ++q) {
    pairs.clear();
    pairs_of(d, q, &pairs);
    n += double(pairs.size());
  }
  return n;
}
}  // namespace

RankSvm::RankSvm(const Dataset& train, CocoaParams cp) : RankSvm(train, cp, pair_count(train)) {}

RankSvm::RankSvm(const Dataset& train, CocoaParams cp, double pairs)
    : Cocoa(with_certificate(ranking_metrics()), train.features(), 1, DualLoss{}, cp, pairs,
            pairs / std::max(1, train.size())) {}

void RankSvm::coords_of(const Dataset& d, int unit, std::vector<DualCoord>* out) const { pairs_of(d, unit, out); }

std::vector<double> RankSvm::evaluate(const ParamSet& p, const Dataset& test) const {
  const Eigen::MatrixXf s = scores(p, test.x);
  const std::vector<float> v(s.data(), s.data() + s.size());
  std::vector<double> m = {mean_ndcg_at(10, v, test.target, test.query_start)};
  append_certificate(p, &m);
  return m;
}

}  // namespace geotrain
