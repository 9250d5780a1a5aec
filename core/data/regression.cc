#include "core/data/regression.h"

#include <cmath>
#include <random>

namespace geotrain {

float friedman1(const float* x) {
  const double pi = 3.14159265358979323846;
  return float(10 * std::sin(pi * x[0] * x[1]) + 20 * (x[2] - 0.5) * (x[2] - 0.5) + 10 * x[3] + 5 * x[4]);
}

TrainTest make_friedman1(const RegressionSpec& s) {
  std::mt19937_64 rng(s.seed * 0x9e3779b97f4a7c15ULL + 23);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::normal_distribution<float> noise(0.0f, float(s.noise));
  auto draw = [&](int n, const char* name) {
    Dataset d;
    d.name = name;
    d.kind = "regression";
    d.x.resize(s.features, n);
    d.target.resize(std::size_t(n));
    for (int k = 0; k < n; ++k) {
      for (int j = 0; j < s.features; ++j) d.x(j, k) = unit(rng);
      d.target[std::size_t(k)] = friedman1(&d.x(0, k)) + noise(rng);
    }
    return d;
  };
  TrainTest tt;
  tt.train = draw(s.train, "friedman1-train");
  tt.test = draw(s.test, "friedman1-test");
  return tt;
}

}  // namespace geotrain
