#include "core/learners/metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace geotrain {

const std::vector<MetricInfo>& ranking_metrics() {
  static const std::vector<MetricInfo> m = {{"test_ndcg10", true, "mean NDCG@10 over held-out queries"}};
  return m;
}

double mean_ndcg_at(int k, const std::vector<float>& scores, const std::vector<float>& grades,
                    const std::vector<int>& query_start) {
  if (query_start.size() < 2) return 0;
  double sum = 0;
  std::vector<int> order;
  std::vector<float> ideal;
  for (std::size_t q = 0; q + 1 < query_start.size(); ++q) {
    const int lo = query_start[q], hi = query_start[q + 1];
    order.resize(std::size_t(hi - lo));
    std::iota(order.begin(), order.end(), lo);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return scores[std::size_t(a)] > scores[std::size_t(b)]; });
    ideal.assign(grades.begin() + lo, grades.begin() + hi);
    std::sort(ideal.begin(), ideal.end(), std::greater<float>());
    double dcg = 0, idcg = 0;
    for (int r = 0; r < k && r < hi - lo; ++r) {
      const double discount = std::log2(double(r) + 2.0);
      dcg += (std::exp2(double(grades[std::size_t(order[std::size_t(r)])])) - 1.0) / discount;
      idcg += (std::exp2(double(ideal[std::size_t(r)])) - 1.0) / discount;
    }
    sum += idcg > 0 ? dcg / idcg : 1.0;
  }
  return sum / double(query_start.size() - 1);
}

}  // namespace geotrain
