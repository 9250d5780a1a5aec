// The analytic round time of HiPS under fully synchronous aggregation,
// computed from its message sequence alone: what the fidelity suite holds the
// simulation (and real mode) to.
//
// One round, from the global server applying round r to applying r + 1, for
// each DC d with a local server: the global server's push ack (small) and,
// right behind it, the model over the path GS -> LS_d; the local server acks
// its workers and sends the model to each behind its ack over its own LAN
// link, one after another; every worker computes
// its step; the workers' gradients arrive at the local server over its LAN
// link, one after another (first finished, first served); its aggregate goes
// to the GS. The round ends when the last DC's aggregate arrives.
//
// Transfers: every byte carries TCP/IP and link-layer headers (54 bytes per
// segment); a message is serialised at its path's slowest link plus one
// segment at each other link (store and forward), plus every link's latency.
// TCP is assumed to have its window open and nothing is lost: a lower bound,
// reached in steady state.
#pragma once
#include <cstdint>

#include "core/config/scenario.h"

namespace geotrain::testing {

constexpr double kPerSegmentHeaderBytes = 54;  // PPP 2 + IP 20 + TCP 20 + timestamps 12

// Seconds per round. `topology` defaults to the scenario's (a test passes a
// copy with a link's bandwidth changed, for a round inside a bandwidth trace's
// window); `segment_bytes` is the TCP segment on every path.
double analytic_round_s(const Scenario& sc, const Topology& topology, double segment_bytes);
inline double analytic_round_s(const Scenario& sc, double segment_bytes) {
  return analytic_round_s(sc, sc.topology, segment_bytes);
}

}  // namespace geotrain::testing
