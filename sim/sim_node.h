// The Runtime of one simulated node: ns-3's clock and event queue, the shared
// Transport (packet-level or flow-level), and the compute-time model (the step's maths runs at once; its
// completion fires after the modelled duration in simulated time).
#pragma once
#include <ns3/core-module.h>

#include <functional>
#include <random>
#include <unordered_map>

#include "core/compute_model.h"
#include "core/runtime.h"
#include "sim/transport.h"

namespace geotrain::sim {

class SimNode : public Runtime {
 public:
  SimNode(NodeId id, Transport& transport, const ComputeModel& compute, std::uint64_t seed,
          std::function<void()> on_stop);
  ~SimNode() override;
  NodeId self() const override { return id_; }
  TimeNs now() const override;
  TimerId schedule(TimeNs delay, std::function<void()> fn) override;
  void cancel(TimerId id) override;
  void send(Message msg) override;
  void compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) override;
  std::mt19937_64& rng() override { return rng_; }
  void stop() override { on_stop_(); }

 private:
  NodeId id_;
  Transport& transport_;
  const ComputeModel& compute_;
  std::mt19937_64 rng_;
  std::function<void()> on_stop_;
  std::unordered_map<TimerId, ns3::EventId> timers_;
  TimerId next_timer_ = 1;
};

}  // namespace geotrain::sim
