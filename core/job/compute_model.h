// How long a training step takes on a node: work / speed (speed from the
// topology, FLOP/s or samples/s), times a jitter factor U(1-j, 1+j), times the
// slowdown of any straggler window covering the step's start. Shared by both
// runtimes: simulation waits this long; real mode pads real steps up to it.
#pragma once
#include <random>
#include <vector>

#include "core/config/scenario.h"
#include "core/runtime/runtime.h"
#include "core/topology/deployment.h"

namespace geotrain {

class ComputeModel {
 public:
  ComputeModel(const Topology& t, const ComputeSpec& c, const Deployment& d);
  // Only workers compute; other nodes take zero time.
  TimeNs duration(NodeId node, const ComputeCost& cost, TimeNs now, std::mt19937_64& rng) const;
  // True when duration() draws from the node's stream (jitter > 0).
  bool draws() const { return spec_.jitter > 0; }
  // The least duration() can return for this step (its jitter factor at 1 - j),
  // without drawing: the simulation may wait until then before it must know.
  TimeNs earliest(NodeId node, const ComputeCost& cost, TimeNs now) const;

 private:
  struct Speed {
    double flops_per_s = 0, samples_per_s = 0;
  };
  TimeNs scaled(NodeId node, const ComputeCost& cost, TimeNs now, double jitter_factor) const;

  std::vector<Speed> speed_;       // by node id
  std::vector<int> worker_index_;  // by node id
  ComputeSpec spec_;
};

}  // namespace geotrain
