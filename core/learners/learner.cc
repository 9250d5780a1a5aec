#include "core/learners/learner.h"

namespace geotrain {

LearnerFootprint Learner::footprint(const ParamSet& initial, std::int64_t /*train_rows*/) const {
  LearnerFootprint f;
  for (const auto& b : initial) f.model_floats += std::uint64_t(b.values.size());
  f.model_blocks = initial.size();
  f.update_floats = f.model_floats;
  f.update_blocks = f.model_blocks;
  return f;
}

}  // namespace geotrain
