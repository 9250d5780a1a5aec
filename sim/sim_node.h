// The Runtime of one simulated node: the run's clock and event queue (sim/event_loop.h), the shared
// Transport (packet-level or flow-level), and the compute-time model: a step's
// maths goes to the ComputePool when it starts and its completion fires after
// the modelled duration in simulated time. settle() waits for the maths; every
// way into the node (its timers here, message deliveries in the runner) calls
// it first, so the node's callbacks see exactly what a one-thread run sees.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <unordered_map>

#include "core/job/compute_model.h"
#include "core/runtime/runtime.h"
#include "sim/compute_pool.h"
#include "sim/event_loop.h"
#include "sim/transport.h"

namespace geotrain::sim {

class SimNode : public Runtime {
 public:
  SimNode(NodeId id, EventLoop& loop, Transport& transport, const ComputeModel& compute, ComputePool& pool,
          std::uint64_t seed, std::function<void()> on_stop);
  ~SimNode() override;
  NodeId self() const override { return id_; }
  TimeNs now() const override;
  TimerId schedule(TimeNs delay, std::function<void()> fn) override;
  void cancel(TimerId id) override;
  void send(Message msg) override;
  void compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) override;
  std::mt19937_64& rng() override { return rng_; }
  void stop() override { on_stop_(); }

  // Waits for the step's maths started by compute(), if any, then (with
  // compute jitter) draws its duration: in the node's stream the duration's
  // draw follows the maths' draws, as if the maths had run at once.
  void settle();

 private:
  NodeId id_;
  EventLoop& loop_;
  Transport& transport_;
  const ComputeModel& compute_;
  ComputePool& pool_;
  std::shared_ptr<ComputePool::Task> work_;  // the step's maths, until settled
  struct Undrawn {                           // a step whose duration is not drawn yet
    ComputeCost cost;
    TimeNs start = 0;
    std::function<void()> done;
  };
  std::optional<Undrawn> undrawn_;
  std::mt19937_64 rng_;
  std::function<void()> on_stop_;
  std::unordered_map<TimerId, EventHandle> timers_;
  TimerId next_timer_ = 1;
};

}  // namespace geotrain::sim
