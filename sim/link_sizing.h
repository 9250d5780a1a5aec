// How big a link's packets and queue may be: the rules that keep a simulation
// with super-segments faithful to one with real packets.
//
// Segments: the largest segment a TCP connection may use across a link takes
// at most max(1 ms, latency / 4) to serialise at the slowest bandwidth the link
// ever has (its trace included), so at least 8 segments fill the link's
// bandwidth-delay product and a window is never a handful of segments; and at
// most min_rto / 8, so one segment's serialisation never fires a retransmission
// timer. Never below one real packet's 1448 bytes.
//
// Queues (at DC switches; hosts never drop, see SimNetwork): the link's
// bandwidth-delay product at its current bandwidth (2 x latency), at least
// min(1 MiB, 100 ms of sending) and two of the largest packets that cross it.
#pragma once
#include <cstdint>

#include "core/topology/topology.h"

namespace geotrain::sim {

constexpr std::uint32_t kRealSegmentBytes = 1448;   // a 1500-byte IP packet's TCP payload (with timestamps)
constexpr std::uint32_t kSegmentHeaderBytes = 100;  // IP + TCP + options, on top of a segment: the link MTU

// Bytes in flight on a path of this bandwidth and one-way latency over one round trip.
inline double bdp_bytes(double mbps, double one_way_latency_ms) {
  return mbps * 1e6 / 8 * 2 * one_way_latency_ms / 1e3;
}

std::uint32_t segment_cap_bytes(double slowest_mbps, double latency_ms, double min_rto_ms);
// The slowest and the fastest bandwidth a link ever has, its trace included.
double slowest_mbps(const LinkSpec& l);
double fastest_mbps(const LinkSpec& l);
// The largest segment a path across this link may use: segment_bytes,
// segment_cap_bytes' cap, one real packet if the link is lossy (loss is drawn
// per real packet: packet_loss_model.h).
std::uint32_t link_segment_bytes(const LinkSpec& l, std::uint32_t segment_bytes, double min_rto_ms);
// A TCP send buffer for a path with this bandwidth-delay product: 1.25 x it
// plus two segments, at least 128 KiB, whole segments; `fixed` instead if set.
std::uint64_t send_buffer_bytes(double bdp_bytes, std::uint32_t segment, std::uint64_t fixed);
// A byte count (initial window) in whole segments, at least one.
std::uint32_t initial_cwnd_segments(std::uint32_t initial_cwnd_bytes, std::uint32_t segment_bytes);
std::uint64_t queue_limit_bytes(double mbps, double latency_ms, std::uint32_t largest_packet_bytes);

}  // namespace geotrain::sim
