#include "sim/link_sizing.h"

#include <algorithm>

namespace geotrain::sim {

std::uint32_t segment_cap_bytes(double slowest_mbps, double latency_ms, double min_rto_ms) {
  const double bytes_per_ms = slowest_mbps * 1e6 / 8 / 1e3;
  const double ms = std::min(std::max(1.0, latency_ms / 4), min_rto_ms / 8);
  const double cap = std::min(bytes_per_ms * ms, 1e9);
  return std::max(kRealSegmentBytes, std::uint32_t(cap));
}

std::uint64_t queue_limit_bytes(double mbps, double latency_ms, std::uint32_t largest_packet_bytes) {
  const double bdp = bdp_bytes(mbps, latency_ms);
  const double floor = std::min(double(1 << 20), mbps * 1e6 / 8 * 0.1);
  return std::max({std::uint64_t(bdp), std::uint64_t(floor), 2 * std::uint64_t(largest_packet_bytes)});
}

}  // namespace geotrain::sim
