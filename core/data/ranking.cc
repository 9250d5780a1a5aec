#include "core/data/ranking.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

namespace geotrain {

float ranking_true_score(const float* x, int features) {
  float f = std::sin(2.0f * x[0]) + x[1] * x[2] + 0.5f * x[3] * x[3] - 0.5f + 0.3f * (x[4] - x[5]);
  if (features > 6) {
    float rest = 0;
    for (int j = 6; j < features; ++j) rest += x[j];
    f += 0.2f * rest / std::sqrt(float(features - 6));
  }
  return f;
}

TrainTest make_ranking(const RankingSpec& s) {
  if (s.features < 6) throw std::invalid_argument("ranking data needs at least 6 features");
  std::mt19937_64 rng(s.seed * 0x9e3779b97f4a7c15ULL + 23);
  std::normal_distribution<float> gauss(0.0f, 1.0f), noise(0.0f, float(s.noise));
  auto draw = [&](int queries, const char* name, std::vector<float>* noisy) {
    Dataset d;
    d.name = name;
    d.kind = "ranking";
    const int n = queries * s.docs;
    d.x.resize(s.features, n);
    for (Eigen::Index i = 0; i < d.x.size(); ++i) d.x.data()[i] = gauss(rng);
    noisy->resize(std::size_t(n));
    for (int k = 0; k < n; ++k) (*noisy)[std::size_t(k)] = ranking_true_score(&d.x(0, k), s.features) + noise(rng);
    for (int q = 0; q <= queries; ++q) d.query_start.push_back(q * s.docs);
    return d;
  };
  std::vector<float> train_scores, test_scores;
  TrainTest tt;
  tt.train = draw(s.train_queries, "ranking-train", &train_scores);
  tt.test = draw(s.test_queries, "ranking-test", &test_scores);
  // Grade cuts from the training scores' percentiles, applied to both sets.
  std::vector<float> sorted = train_scores;
  std::sort(sorted.begin(), sorted.end());
  std::vector<float> cuts;
  for (double pct : {0.50, 0.75, 0.90, 0.97}) cuts.push_back(sorted[std::size_t(pct * double(sorted.size() - 1))]);
  auto grade = [&](const std::vector<float>& scores, Dataset& d) {
    d.target.resize(scores.size());
    for (std::size_t k = 0; k < scores.size(); ++k)
      d.target[k] = float(std::upper_bound(cuts.begin(), cuts.end(), scores[k]) - cuts.begin());
  };
  grade(train_scores, tt.train);
  grade(test_scores, tt.test);
  return tt;
}

}  // namespace geotrain
