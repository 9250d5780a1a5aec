// Gradients checked against central finite differences, for both models.
#include <gtest/gtest.h>

#include <random>

#include "core/models/mlp.h"

namespace geotrain {
namespace {

void check_gradient(const Mlp& m) {
  std::mt19937_64 rng(7);
  std::normal_distribution<float> n(0, 1);
  Eigen::MatrixXf x(6, 5);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = n(rng);
  std::vector<int> y = {0, 2, 1, 2, 0};
  ParamSet p = m.init(3);
  // Move biases off zero so their gradients are exercised away from ReLU kinks.
  for (auto& b : p)
    for (Eigen::Index i = 0; i < b.values.size(); ++i) b.values[i] += 0.1f * n(rng);
  ParamSet g;
  m.loss_and_gradient(p, x, y, &g);
  ParamSet scratch;
  const float h = 1e-2f;
  int checked = 0;
  for (std::size_t blk = 0; blk < p.size(); ++blk) {
    for (Eigen::Index i = 0; i < p[blk].values.size(); ++i) {
      ParamSet plus = p, minus = p;
      plus[blk].values[i] += h;
      minus[blk].values[i] -= h;
      const double numeric =
          (m.loss_and_gradient(plus, x, y, &scratch) - m.loss_and_gradient(minus, x, y, &scratch)) / (2 * h);
      EXPECT_NEAR(g[blk].values[i], numeric, 2e-3 + 2e-2 * std::abs(numeric)) << "block " << blk << " index " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

TEST(Model, SoftmaxRegressionGradientMatchesFiniteDifferences) { check_gradient(Mlp(6, {}, 3)); }

TEST(Model, MlpGradientMatchesFiniteDifferences) { check_gradient(Mlp(6, {5, 4}, 3)); }

TEST(Model, EvaluateCountsCorrectPredictions) {
  Mlp m(2, {}, 2);
  ParamSet p = m.init(1);
  // Class = sign of the first feature.
  p[0].values << 1, -1, 0, 0;  // W is 2x2 column-major: W(0,0)=1, W(1,0)=-1
  Dataset d;
  d.classes = 2;
  d.x.resize(2, 4);
  d.x << 1, -1, 2, -3, 0, 0, 0, 0;
  d.y = {0, 1, 0, 0};  // the last label is deliberately wrong
  EXPECT_DOUBLE_EQ(evaluate(m, p, d).accuracy, 0.75);
}

}  // namespace
}  // namespace geotrain
