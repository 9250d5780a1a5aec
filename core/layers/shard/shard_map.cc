#include "core/layers/shard/shard_map.h"

#include <stdexcept>

namespace geotrain {

ShardMap::ShardMap(const ParamSet& model, int servers, std::uint64_t split_above) : servers_(servers) {
  if (servers < 1) throw std::invalid_argument("a model needs at least one global server");
  for (const ParamBlock& b : model) {
    const auto n = std::uint32_t(b.values.size());
    if (std::uint64_t(n) < split_above || servers == 1) {
      slices_.push_back({b.key, 0, n, server_of(b.key, servers)});
      continue;
    }
    const std::uint32_t base = n / std::uint32_t(servers), longer = n % std::uint32_t(servers);
    std::uint32_t offset = 0;
    for (int s = 0; s < servers; ++s) {
      const std::uint32_t count = base + (std::uint32_t(s) < longer ? 1 : 0);
      if (count > 0) slices_.push_back({b.key, offset, count, s});
      offset += count;
    }
  }
}

std::vector<ShardSlice> ShardMap::slices_of(int s) const {
  std::vector<ShardSlice> out;
  for (const ShardSlice& x : slices_)
    if (x.server == s) out.push_back(x);
  return out;
}

std::uint64_t ShardMap::entries_of(int s) const {
  std::uint64_t n = 0;
  for (const ShardSlice& x : slices_)
    if (x.server == s) n += x.count;
  return n;
}

}  // namespace geotrain
