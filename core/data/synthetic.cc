#include "core/data/synthetic.h"

#include <random>

namespace geotrain {

TrainTest make_synthetic(const SyntheticSpec& s) {
  std::mt19937_64 rng(s.seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  Eigen::MatrixXf means(s.features, s.classes);
  for (int c = 0; c < s.classes; ++c)
    for (int f = 0; f < s.features; ++f) means(f, c) = 2.0f * normal(rng);
  auto make = [&](int n) {
    Dataset d;
    d.name = "synthetic";
    d.classes = s.classes;
    d.x.resize(s.features, n);
    d.y.resize(n);
    for (int i = 0; i < n; ++i) {
      int c = i % s.classes;
      d.y[i] = c;
      for (int f = 0; f < s.features; ++f) d.x(f, i) = means(f, c) + s.noise * normal(rng);
    }
    return d;
  };
  TrainTest tt;
  tt.train = make(s.train);
  tt.test = make(s.test);
  return tt;
}

}  // namespace geotrain
