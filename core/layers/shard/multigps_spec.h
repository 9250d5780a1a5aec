// The scenario's `multigps` section: how many global servers share the model.
#pragma once
#include <cstdint>

namespace geotrain {

// MultiGPS (core/layers/shard, REFERENCE.md section 1): the model sharded over
// several global servers in the global server's DC.
struct MultiGpsSpec {
  int servers = 1;
  std::uint64_t split_above = 1000000;  // tensors of at least this many entries are cut into ranges
};

}  // namespace geotrain
