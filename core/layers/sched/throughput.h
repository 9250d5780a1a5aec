// Per-pair throughput estimates a scheduler reads (core/layers/sched): for each
// ordered pair of nodes, the last transfer measured between them (bytes over
// its duration in the runtime's time, as its receiver saw it: every runtime
// stamps a message's send time, Message::sent_s; inside a scheduled group
// every model and push a member receives is reported to the coordinator,
// and every push the coordinator's node receives is recorded) and a prior
// from the scenario's topology (the declared bandwidth and latency, and TCP's
// slow start from its initial window on a connection not used before), used
// until the pair has been measured. Both runtimes fill it the same way, so a
// scheduler never reads simulator internals.
#pragma once
#include <cstdint>
#include <map>
#include <utility>

#include "core/payload/message.h"

namespace geotrain {

class Throughput {
 public:
  // What the topology says of a -> b: bits per second, one-way latency, and
  // TCP's initial window in bytes.
  void set_prior(NodeId a, NodeId b, double bits_per_s, double latency_s, double initial_window_bytes);
  // A transfer of `bytes` from a to b took `seconds` (send to arrival).
  void record(NodeId a, NodeId b, std::uint64_t bytes, double seconds);

  bool measured(NodeId a, NodeId b) const { return measured_.count({a, b}) > 0; }
  // The last measured rate, bytes per second; 0 when unmeasured.
  double rate(NodeId a, NodeId b) const;
  // Seconds to move `bytes` from a to b: the last measurement scaled to
  // `bytes`, else the prior, else infinity. The prior: latency + bytes /
  // bandwidth + one round trip per doubling of the window from its initial
  // size to what the transfer (or the path's bandwidth-delay product) needs.
  double seconds(NodeId a, NodeId b, std::uint64_t bytes) const;
  // How many transfers were measured.
  std::uint64_t samples() const { return samples_; }

 private:
  struct Sample {
    double bytes = 0, seconds = 0;
  };
  struct Prior {
    double bits_per_s = 0, latency_s = 0, initial_window_bytes = 0;
  };
  std::map<std::pair<NodeId, NodeId>, Sample> measured_;
  std::map<std::pair<NodeId, NodeId>, Prior> prior_;
  std::uint64_t samples_ = 0;
};

}  // namespace geotrain
