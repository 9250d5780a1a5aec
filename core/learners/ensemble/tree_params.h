// The tree and boosting learners' numeric parameters as the registry declares
// them (core/learners/learner_registry.cc), and their reading from a loaded
// ModelSpec into the engine's and the booster's settings.
#pragma once
#include <vector>

#include "core/base/registry.h"
#include "core/learners/ensemble/booster.h"
#include "core/learners/learner_spec.h"

namespace geotrain {

// The tree engine's parameters (default depth and iterations), then `more`.
std::vector<NumericParam> tree_params(int depth, int iterations, std::vector<NumericParam> more);
// A booster's: the engine's and shrinkage, L2, subsampling (and, second order, gamma and colsample).
std::vector<NumericParam> boost_params(double eta, double lambda, double subsample, bool second_order);
// The random forest's.
std::vector<NumericParam> forest_params();
TreeShape shape_of(const ModelSpec& m);
BoostParams boost_of(const ModelSpec& m, bool second_order);

}  // namespace geotrain
