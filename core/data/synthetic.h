// A small synthetic classification problem for fast tests: Gaussian blobs, one
// per class, with class means drawn from the seed. Linearly separable enough for
// softmax regression to exceed 0.9 accuracy in a few hundred steps.
#pragma once
#include <cstdint>

#include "core/data/dataset.h"

namespace geotrain {

struct SyntheticSpec {
  int features = 16;
  int classes = 4;
  int train = 2000;
  int test = 500;
  float noise = 1.0f;  // per-feature standard deviation around the class mean
  std::uint64_t seed = 1;
};

TrainTest make_synthetic(const SyntheticSpec& spec);

}  // namespace geotrain
