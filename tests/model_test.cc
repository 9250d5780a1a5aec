// Gradients checked against central finite differences, for both models.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "core/learners/classifier.h"
#include "core/learners/mlp.h"

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

// The gradient of a Fashion-MNIST-sized MLP must not depend on the cache sizes
// the CPU reports (Eigen derives its product blocking from them), or runs on
// two machines drift apart.
ParamSet gradient_with_reported_caches(std::ptrdiff_t l1, std::ptrdiff_t l2, std::ptrdiff_t l3) {
  Eigen::setCpuCacheSizes(l1, l2, l3);  // what a different machine would report
  const Mlp m(784, {128}, 10);
  std::mt19937_64 rng(11);
  std::normal_distribution<float> n(0, 1);
  Eigen::MatrixXf x(784, 32);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = n(rng);
  std::vector<int> y(32);
  for (int i = 0; i < 32; ++i) y[std::size_t(i)] = i % 10;
  ParamSet g;
  m.loss_and_gradient(m.init(5), x, y, &g);
  return g;
}

TEST(Model, GradientIsBitIdenticalWhateverCachesTheMachineReports) {
  const ParamSet small = gradient_with_reported_caches(16 * 1024, 128 * 1024, 1024 * 1024);
  const ParamSet large = gradient_with_reported_caches(64 * 1024, 4 * 1024 * 1024, 512 * 1024 * 1024);
  ASSERT_EQ(small.size(), large.size());
  for (std::size_t b = 0; b < small.size(); ++b) {
    ASSERT_EQ(small[b].values.size(), large[b].values.size());
    EXPECT_EQ(0, std::memcmp(small[b].values.data(), large[b].values.data(),
                             sizeof(float) * std::size_t(small[b].values.size())))
        << "block " << b;
  }
}

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
  EXPECT_DOUBLE_EQ(evaluate_classifier(m, p, d).accuracy, 0.75);
}

}  // namespace
}  // namespace geotrain
