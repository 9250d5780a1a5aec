// A worker: computes a step on its shard with the parameters it holds, pushes
// the update to its parent (local server, or the global server in flat), waits
// for the push ack, pulls, installs the parameters (and the round number the
// server is collecting), repeats. If its SyncPolicy does not wait for the
// model, it steps on after each push (updates made while a push is in flight
// are summed into the next one) and an ack makes it pull the newer model,
// installed for the step after it arrives. Tracks how long it computed (busy) and how
// long it waited for the round trip (blocked). rejoin() (a restarted process)
// pulls the current model before its first step. A kControl from its parent
// (a restarted global server, in flat) re-sends an unacknowledged push.
#pragma once
#include <vector>

#include "core/deployment.h"
#include "core/optim/optimizer.h"
#include "core/roles/role_context.h"
#include "core/runtime.h"

namespace geotrain {

struct WorkerStats {
  TimeNs busy_ns = 0;     // computing
  TimeNs blocked_ns = 0;  // between push and receiving new parameters
  std::int64_t steps = 0;
  std::int64_t pushes = 0;
};

class Worker : public Actor {
 public:
  Worker(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx);
  void start() override;
  void rejoin() override;
  void on_message(const Message& msg) override;
  const WorkerStats& stats() const { return stats_; }
  // The same, with the step or the wait still in progress at `now` counted up
  // to `now` (a run that stops mid-wait must not lose that wait).
  WorkerStats stats_at(TimeNs now) const;
  std::int64_t round() const { return round_; }  // the global round this worker is computing for
  // {busy_s, blocked_s, steps, pushes, round}.
  nlohmann::json report(TimeNs now) const override;

 private:
  void begin_step();
  void compute_update();  // the real maths of one step
  void finish_step();
  void send_backlog();
  const std::vector<int>& next_batch();

  Runtime& rt_;
  NodeSpec spec_;
  RoleContext ctx_;
  ParamSet params_;
  std::shared_ptr<Payload> update_;
  std::shared_ptr<const Payload> pushed_;  // last push, until acknowledged
  bool waiting_ack_ = false;
  bool waiting_params_ = false;
  // Policies that do not wait: a pull under way, a push not yet acknowledged,
  // and the updates made meanwhile, summed into the next push (at most one push
  // per worker is ever in flight, however far compute outpaces the network).
  bool pulling_ = false, push_in_flight_ = false;
  std::shared_ptr<Payload> backlog_;
  std::int64_t slowest_ = 0;  // the slowest worker's clock, as last announced
  bool held_ = false;         // may_step() said no: waiting for a kRelease
  // Policies that step locally and push the model's change: the worker's own
  // optimiser, the global model it started from, local steps and loss so far.
  std::unique_ptr<Optimizer> local_opt_;
  ParamSet global_;
  int local_done_ = 0;
  double local_loss_ = 0;
  std::int64_t round_ = 0;
  std::vector<int> order_, batch_;
  std::size_t cursor_ = 0;
  TimeNs step_start_ = 0, push_time_ = 0;
  WorkerStats stats_;
};

}  // namespace geotrain
