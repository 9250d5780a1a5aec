// Where each part of the model lives when S global servers share it (MultiGPS,
// REFERENCE.md section 1, ps-lite's slicer idea): a tensor smaller than
// `split_above` entries goes whole to server (key * 9973) % S; a larger one is
// cut into S contiguous ranges of equal size (the first n % S one entry
// longer), range s on server s. The one placement rule every role that pushes
// or pulls per shard asks.
#pragma once
#include <cstdint>
#include <vector>

#include "core/payload/params.h"

namespace geotrain {

struct ShardSlice {
  std::uint32_t key = 0;
  std::uint32_t offset = 0, count = 0;  // entries [offset, offset + count) of the tensor
  int server = 0;
};

class ShardMap {
 public:
  // `model`: the tensors (keys and sizes; values unused). REQUIRES: servers >= 1.
  ShardMap(const ParamSet& model, int servers, std::uint64_t split_above);
  int servers() const { return servers_; }
  // Every slice, in key then offset order: together they cover the model exactly once.
  const std::vector<ShardSlice>& slices() const { return slices_; }
  // The slices server `s` holds, in the same order.
  std::vector<ShardSlice> slices_of(int s) const;
  // Entries server `s` holds (its share of every push and pull).
  std::uint64_t entries_of(int s) const;
  // The placement of a whole small tensor.
  static int server_of(std::uint32_t key, int servers) {
    return int((std::uint64_t(key) * 9973) % std::uint64_t(servers));
  }

 private:
  int servers_;
  std::vector<ShardSlice> slices_;
};

}  // namespace geotrain
