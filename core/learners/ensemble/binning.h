// Feature binning for the histogram tree learners, done once per job from a
// sketch merged across workers.
//
// In the first round every worker sends a bottom-k sample of its rows: the k
// rows with the smallest hash key (core/learners/ensemble/hashing.h), as
// k-smallest candidates [key, x_0, ..., x_{F-1}] (Merge::kKSmallest). Merged up
// any hierarchy they are the k smallest-key rows of all the data: a uniform
// sample that is the same for any sharding, so 4 workers bin exactly as one
// does. The global server cuts each feature at midpoints between the sample's
// quantiles: at most bins - 1 cuts, one per distinct value where a feature has
// fewer. A value's bin is the number of cuts below it, so "bin <= t" is
// "x <= cut t" on raw values too (test data need no bins).
#pragma once
#include <Eigen/Dense>
#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/data/dataset.h"
#include "core/learners/learner.h"

namespace geotrain {

// The key of an empty candidate slot: above every key (keys are in [0, 1)) and
// finite in fp16, which may carry the sketch.
constexpr float kNoCandidate = 65504.0f;

// The sketch's merge rule: k-smallest candidates of 1 + features entries;
// fp16 may carry them (kNoCandidate is finite there).
inline BlockRule sketch_rule(std::uint32_t key, int features, int rows) {
  return {key, Merge::kKSmallest, std::uint32_t(1 + features), std::uint32_t(rows), Precision::kRounding};
}

// A weak-ranker booster's footprint: `base` (its model never grows) with an
// update of the sketch (k rows of 1 + features) or `stats` summed statistics.
LearnerFootprint weak_ranker_footprint(LearnerFootprint base, int features, int sketch_rows, std::uint64_t stats);

// NDCG@10 and the number of weak rankers: the metrics of a boosted ranker of weak rankers.
const std::vector<MetricInfo>& weak_ranker_metrics();

// The rows (columns of d.x) of a batch of units: the documents of its queries for ranking data.
std::vector<int> rows_of(const Dataset& d, const std::vector<int>& units);

// The sketch block of `rows` (columns of d.x): k candidates of 1 + features
// entries, the rows with the k smallest keys first, empty slots kNoCandidate.
Eigen::VectorXf sketch_rows(const Dataset& d, const std::vector<int>& rows, std::uint64_t seed, int k);

// Each feature's cuts from a merged sketch: features x (bins - 1) entries,
// feature-major, ascending, padded by repeating the last cut (a feature with one
// value has that value as its only cut).
Eigen::VectorXf cuts_from_sketch(const Eigen::VectorXf& merged, int features, int bins);

// The bin of x: the number of cuts below it (0 .. ncuts).
inline int bin_of(const float* cuts, int ncuts, float x) { return int(std::lower_bound(cuts, cuts + ncuts, x) - cuts); }

}  // namespace geotrain
