// Max-min fair sharing (sim/max_min.h): textbook cases, and the defining
// property on random instances (no link over capacity; every flow is held by
// a full link on which it has a largest rate, or by its own cap).
#include "sim/max_min.h"

#include <gtest/gtest.h>

#include <random>

namespace geotrain::sim {
namespace {

TEST(MaxMin, EqualSharesOnOneLinkAndTheRestGoesToTheUnconstrained) {
  // Flows 0 and 1 share link 0 (10); flow 1 also crosses link 1 (2): it gets
  // 2, and flow 0 takes the 8 left.
  const auto r = max_min_rates({{{0}, 0}, {{0, 1}, 0}}, {10, 2});
  EXPECT_DOUBLE_EQ(r[1], 2);
  EXPECT_DOUBLE_EQ(r[0], 8);
  const auto even = max_min_rates({{{0}, 0}, {{0}, 0}, {{0}, 0}, {{0}, 0}}, {12});
  for (double x : even) EXPECT_DOUBLE_EQ(x, 3);
}

TEST(MaxMin, AFlowsOwnCapActsAsAPrivateLink) {
  const auto r = max_min_rates({{{0}, 1.5}, {{0}, 0}}, {10});
  EXPECT_DOUBLE_EQ(r[0], 1.5);
  EXPECT_DOUBLE_EQ(r[1], 8.5);
}

TEST(MaxMin, RandomInstancesAreFeasibleAndEveryFlowHasABottleneck) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const int links = 1 + int(rng() % 8), flows = 1 + int(rng() % 12);
    std::vector<double> cap(static_cast<std::size_t>(links));
    for (auto& c : cap) c = 1 + double(rng() % 1000);
    std::vector<MaxMinFlow> f(static_cast<std::size_t>(flows));
    for (auto& x : f) {
      for (int l = 0; l < links; ++l)
        if (rng() % 3 == 0) x.links.push_back(l);
      if (x.links.empty()) x.links.push_back(int(rng() % std::uint64_t(links)));
      if (rng() % 4 == 0) x.cap = 1 + double(rng() % 300);
    }
    const auto r = max_min_rates(f, cap);
    std::vector<double> used(static_cast<std::size_t>(links), 0.0);
    for (std::size_t i = 0; i < f.size(); ++i)
      for (int l : f[i].links) used[std::size_t(l)] += r[i];
    for (int l = 0; l < links; ++l) EXPECT_LE(used[std::size_t(l)], cap[std::size_t(l)] * (1 + 1e-9)) << trial;
    for (std::size_t i = 0; i < f.size(); ++i) {
      EXPECT_GT(r[i], 0);
      if (f[i].cap > 0 && r[i] >= f[i].cap * (1 - 1e-9)) continue;  // held by its cap
      bool bottleneck = false;
      for (int l : f[i].links) {
        if (used[std::size_t(l)] < cap[std::size_t(l)] * (1 - 1e-9)) continue;  // not full
        bool largest = true;
        for (std::size_t j = 0; j < f.size(); ++j)
          for (int l2 : f[j].links)
            if (l2 == l && r[j] > r[i] * (1 + 1e-9)) largest = false;
        bottleneck = bottleneck || largest;
      }
      EXPECT_TRUE(bottleneck) << "trial " << trial << " flow " << i << " could grow";
    }
  }
}

}  // namespace
}  // namespace geotrain::sim
