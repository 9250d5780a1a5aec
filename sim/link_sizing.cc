#include "sim/link_sizing.h"

#include <algorithm>
#include <cmath>

namespace geotrain::sim {

std::uint32_t segment_cap_bytes(double slowest_mbps, double latency_ms, double min_rto_ms) {
  const double bytes_per_ms = slowest_mbps * 1e6 / 8 / 1e3;
  const double ms = std::min(std::max(1.0, latency_ms / 4), min_rto_ms / 8);
  const double cap = std::min(bytes_per_ms * ms, 1e9);
  return std::max(kRealSegmentBytes, std::uint32_t(cap));
}

double slowest_mbps(const LinkSpec& l) {
  double bw = l.bandwidth_mbps;
  for (const auto& p : l.trace) bw = std::min(bw, p.bandwidth_mbps);
  return bw;
}

double fastest_mbps(const LinkSpec& l) {
  double bw = l.bandwidth_mbps;
  for (const auto& p : l.trace) bw = std::max(bw, p.bandwidth_mbps);
  return bw;
}

std::uint32_t link_segment_bytes(const LinkSpec& l, std::uint32_t segment_bytes, double min_rto_ms) {
  const std::uint32_t cap = std::min(segment_bytes, segment_cap_bytes(slowest_mbps(l), l.latency_ms, min_rto_ms));
  return l.loss > 0 ? std::min(cap, kRealSegmentBytes) : cap;
}

std::uint64_t send_buffer_bytes(double bdp_bytes, std::uint32_t segment, std::uint64_t fixed) {
  std::uint64_t b = fixed;
  if (b == 0) b = std::max<std::uint64_t>(131072, std::uint64_t(1.25 * bdp_bytes) + 2 * segment);
  // ns-3 keeps buffer sizes in 32 bits and TCP's window scaling stops at 1 GiB:
  // the receive buffer (twice this) must stay below that, whatever the BDP.
  b = std::min<std::uint64_t>(b, std::uint64_t(1) << 29);
  return (b + segment - 1) / segment * segment;
}

std::uint32_t initial_cwnd_segments(std::uint32_t initial_cwnd_bytes, std::uint32_t segment_bytes) {
  return std::max<std::uint32_t>(1, std::uint32_t(std::lround(double(initial_cwnd_bytes) / segment_bytes)));
}

std::uint64_t queue_limit_bytes(double mbps, double latency_ms, std::uint32_t largest_packet_bytes) {
  const double bdp = bdp_bytes(mbps, latency_ms);
  const double floor = std::min(double(1 << 20), mbps * 1e6 / 8 * 0.1);
  return std::max({std::uint64_t(bdp), std::uint64_t(floor), 2 * std::uint64_t(largest_packet_bytes)});
}

}  // namespace geotrain::sim
