// Generated query/document lists with graded relevance, for learning to rank.
// Each query has `docs` documents with features x ~ N(0, 1); the true score is
// a known nonlinear function (ranking_true_score), and a document's grade
// (0 to 4) is its noisy score f(x) + e, e ~ N(0, noise^2), cut at the 50th,
// 75th, 90th and 97th percentiles of all noisy scores (few documents are very
// relevant, as in real query logs). Ranking by f itself is the best a model
// can do; its NDCG@10 is the yardstick.
#pragma once
#include <cstdint>

#include "core/data/dataset.h"

namespace geotrain {

struct RankingSpec {
  int train_queries = 2000, test_queries = 500, docs = 20, features = 10;
  double noise = 0.3;
  std::uint64_t seed = 1;
};

// f(x) = sin(2 x0) + x1 x2 + 0.5 x3^2 - 0.5 + 0.3 (x4 - x5) + 0.2 sum_{j >= 6} x_j / sqrt(features - 6).
float ranking_true_score(const float* x, int features);

// kind "ranking": x features x documents, query_start, target the grade.
TrainTest make_ranking(const RankingSpec& spec);

}  // namespace geotrain
