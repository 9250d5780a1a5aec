// Generated regression data with a known function: Friedman #1 (Friedman
// 1991), the standard test of nonlinear regression. Inputs x ~ U[0, 1]^features
// (features >= 5; only the first five matter) and
//   y = 10 sin(pi x0 x1) + 20 (x2 - 0.5)^2 + 10 x3 + 5 x4 + e,  e ~ N(0, noise^2),
// so the best any model can do on held-out data is an RMSE of `noise`.
// Train and test are disjoint draws of the same process.
#pragma once
#include <cstdint>

#include "core/data/dataset.h"

namespace geotrain {

struct RegressionSpec {
  int train = 20000, test = 5000, features = 10;
  double noise = 1.0;
  std::uint64_t seed = 1;
};

// Friedman #1's noiseless value at x (at least five entries).
float friedman1(const float* x);

// kind "regression": x features x samples, target the noisy value.
TrainTest make_friedman1(const RegressionSpec& spec);

}  // namespace geotrain
