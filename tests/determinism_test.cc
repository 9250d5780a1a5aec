// The same results on every x86-64 machine: Eigen's products are planned for
// pinned cache sizes, not the machine's (core/base/numeric_environment.h). glibc's
// CPU-specific libm variants are covered by the ctest
// determinism.quickstart_without_avx2_fma_avx512.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "core/base/numeric_environment.h"

namespace geotrain {
namespace {

// An MLP layer's product (a batch of 64 images through 256 hidden units).
Eigen::MatrixXf layer_product() {
  Eigen::MatrixXf a(64, 784), b(784, 256);
  for (Eigen::Index i = 0; i < a.size(); ++i) a.data()[i] = float((i * 7919) % 1000) / 997.0f - 0.5f;
  for (Eigen::Index i = 0; i < b.size(); ++i) b.data()[i] = float((i * 104729) % 1000) / 991.0f - 0.5f;
  return a * b;
}

void pretend_caches(long l1, long l2, long l3) { Eigen::setCpuCacheSizes(l1, l2, l3); }

TEST(Determinism, MatrixProductsDoNotDependOnTheMachinesCaches) {
  // Two machines' caches, as Eigen would read them: the products round differently...
  pretend_caches(16 * 1024, 256 * 1024, 2 * 1024 * 1024);
  const Eigen::MatrixXf small = layer_product();
  pretend_caches(48 * 1024, 2 * 1024 * 1024, 32 * 1024 * 1024);
  const Eigen::MatrixXf big = layer_product();
  ASSERT_GT((small - big).cwiseAbs().maxCoeff(), 0) << "these machines' blockings would agree: not a test";
  // ...and, pinned, the same to the last bit.
  pretend_caches(16 * 1024, 256 * 1024, 2 * 1024 * 1024);
  pin_numeric_environment();
  const Eigen::MatrixXf pinned_small = layer_product();
  pretend_caches(48 * 1024, 2 * 1024 * 1024, 32 * 1024 * 1024);
  pin_numeric_environment();
  const Eigen::MatrixXf pinned_big = layer_product();
  EXPECT_TRUE((pinned_small.array() == pinned_big.array()).all());
}

}  // namespace
}  // namespace geotrain
