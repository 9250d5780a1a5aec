// Metric functions the learners share (each learner names its own metrics).
#pragma once
#include <Eigen/Dense>
#include <vector>

#include "core/learners/learner.h"

namespace geotrain {

// Mean NDCG@k over queries: for query q, documents [query_start[q],
// query_start[q + 1]) ranked by descending score (ties by position), gains
// 2^grade - 1, discount log2(rank + 1). A query without a relevant document
// counts as 1 (any order is ideal).
// {test_ndcg10}: every ranker's metric, mean_ndcg_at(10) on held-out queries.
const std::vector<MetricInfo>& ranking_metrics();

double mean_ndcg_at(int k, const std::vector<float>& scores, const std::vector<float>& grades,
                    const std::vector<int>& query_start);

}  // namespace geotrain
