// The MultiGPS placement rule (core/layers/shard/shard_map.h): small tensors whole on
// server (key * 9973) % S, large ones in S equal ranges; every entry placed
// exactly once; a balanced model balances the servers.
#include "core/layers/shard/shard_map.h"

#include <gtest/gtest.h>

#include <map>

namespace geotrain {
namespace {

ParamSet model_of(const std::vector<std::pair<std::uint32_t, int>>& sizes) {
  ParamSet m;
  for (const auto& [key, n] : sizes) m.push_back({key, Eigen::VectorXf::Zero(n)});
  return m;
}

TEST(ShardMap, SmallTensorsFollowTheKeyRuleAndLargeOnesSplitEvenly) {
  const ParamSet m = model_of({{0, 10}, {1, 999}, {2, 1000}, {3, 1003}, {7, 5}});
  const ShardMap map(m, 4, 1000);
  std::map<std::uint32_t, std::uint32_t> size, covered;
  for (const ParamBlock& b : m) size[b.key] = std::uint32_t(b.values.size());
  for (const ShardSlice& s : map.slices()) {
    covered[s.key] += s.count;
    const std::uint32_t n = size.at(s.key);
    if (n < 1000) {
      EXPECT_EQ(s.server, int((std::uint64_t(s.key) * 9973) % 4)) << "key " << s.key;
      EXPECT_EQ(s.offset, 0u);
      EXPECT_EQ(s.count, n);
    } else {
      EXPECT_GE(s.count, n / 4);
      EXPECT_LE(s.count, n / 4 + 1);
    }
  }
  EXPECT_EQ(covered, size) << "every entry placed exactly once";
  // Key 3's ranges are contiguous and in server order: 251, 251, 251, 250.
  std::uint32_t next = 0;
  for (const ShardSlice& s : map.slices())
    if (s.key == 3) {
      EXPECT_EQ(s.offset, next);
      next += s.count;
    }
  EXPECT_EQ(next, 1003u);
  // 9973 % 4 = 1 and 7 * 9973 % 4 = 3: server 1 holds key 1 whole and a range of keys 2 and 3.
  EXPECT_EQ(ShardMap::server_of(1, 4), 1);
  EXPECT_EQ(ShardMap::server_of(7, 4), 3);
  EXPECT_EQ(map.slices_of(1).size(), 3u);
}

TEST(ShardMap, TwoServersHalveTheLargestServersShareOfABalancedModel) {
  const ParamSet m = model_of({{0, 200000}, {1, 300000}, {2, 100}, {3, 100}});
  const ShardMap one(m, 1, 1000), two(m, 2, 1000);
  const std::uint64_t total = one.entries_of(0);
  EXPECT_EQ(total, 500200u);
  EXPECT_EQ(two.entries_of(0) + two.entries_of(1), total);
  EXPECT_LE(std::max(two.entries_of(0), two.entries_of(1)), total / 2 + 100);
  EXPECT_THROW(ShardMap(m, 0, 1000), std::invalid_argument);
}

}  // namespace
}  // namespace geotrain
