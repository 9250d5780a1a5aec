// Partitioning: every sample exactly once, and the non-iid kinds are skewed.
#include "core/data/partition.h"

#include <gtest/gtest.h>

#include <set>

#include "core/data/synthetic.h"

namespace geotrain {
namespace {

Dataset data() {
  SyntheticSpec s;
  s.classes = 10;
  s.train = 3000;
  return make_synthetic(s).train;
}

void expect_exact_cover(const std::vector<std::vector<int>>& shards, int n) {
  std::vector<int> seen(n, 0);
  for (const auto& s : shards) {
    EXPECT_FALSE(s.empty());
    for (int i : s) ++seen[i];
  }
  for (int i = 0; i < n; ++i) ASSERT_EQ(seen[i], 1) << "sample " << i;
}

// Mean number of distinct classes per shard.
double classes_per_shard(const Dataset& d, const std::vector<std::vector<int>>& shards) {
  double sum = 0;
  for (const auto& s : shards) {
    std::set<int> c;
    for (int i : s) c.insert(d.y[i]);
    sum += c.size();
  }
  return sum / shards.size();
}

TEST(Partition, IidCoversEverySampleOnceInEqualParts) {
  Dataset d = data();
  auto s = partition(d, {"iid", "worker", 2, 0.5}, {0, 3, 3}, 1);
  ASSERT_EQ(s.size(), 6u);
  expect_exact_cover(s, d.size());
  for (const auto& x : s) EXPECT_EQ(x.size(), 500u);
  EXPECT_DOUBLE_EQ(classes_per_shard(d, s), 10.0);
}

TEST(Partition, ByClassGivesEachWorkerFewClasses) {
  Dataset d = data();
  auto s = partition(d, {"by_class", "worker", 2, 0.5}, {4, 4}, 1);
  expect_exact_cover(s, d.size());
  EXPECT_LE(classes_per_shard(d, s), 3.0);
}

TEST(Partition, DirichletSkewGrowsAsAlphaShrinks) {
  Dataset d = data();
  auto skewed = partition(d, {"dirichlet", "worker", 2, 0.05}, {4, 4}, 1);
  auto mild = partition(d, {"dirichlet", "worker", 2, 100.0}, {4, 4}, 1);
  expect_exact_cover(skewed, d.size());
  expect_exact_cover(mild, d.size());
  EXPECT_LT(classes_per_shard(d, skewed), classes_per_shard(d, mild));
}

TEST(Partition, DcLevelSharesClassesWithinADc) {
  Dataset d = data();
  auto s = partition(d, {"by_class", "dc", 2, 0.5}, {3, 3}, 2);
  ASSERT_EQ(s.size(), 6u);
  expect_exact_cover(s, d.size());
  // Workers of one DC draw iid from the DC's part: same class set.
  for (int dc = 0; dc < 2; ++dc) {
    std::set<int> first;
    for (int i : s[dc * 3]) first.insert(d.y[i]);
    for (int w = 1; w < 3; ++w) {
      std::set<int> other;
      for (int i : s[dc * 3 + w]) other.insert(d.y[i]);
      EXPECT_EQ(first, other);
    }
  }
}

TEST(Partition, SameSeedSameSplit) {
  Dataset d = data();
  EXPECT_EQ(partition(d, {"dirichlet", "worker", 2, 0.3}, {2, 2}, 9),
            partition(d, {"dirichlet", "worker", 2, 0.3}, {2, 2}, 9));
}

}  // namespace
}  // namespace geotrain
