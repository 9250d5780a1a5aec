// A scenario's TrainingJob run in a FakeWorld, for fast deterministic tests of
// roles and policies: every pair of nodes gets a link from the topology (the
// path's latencies added, its slowest bandwidth; no loss), every step the time
// the job's compute model gives it. The global server reports to a RunMonitor,
// so the scenario's stop condition ends the run as in the real runtimes.
#pragma once
#include <limits>
#include <memory>
#include <vector>

#include "core/job/job.h"
#include "core/run/monitor.h"
#include "core/testing/fake_world.h"

namespace geotrain::testing {

class FakeJob {
 public:
  explicit FakeJob(const Scenario& sc, Tracer* tracer = nullptr);

  FakeWorld& world() { return world_; }
  const TrainingJob& job() const { return job_; }
  RunMonitor& monitor() { return monitor_; }
  Actor& actor(NodeId id) { return *actors_.at(std::size_t(id)); }
  template <typename Role>
  Role& role(NodeId id) {
    return dynamic_cast<Role&>(actor(id));
  }
  // Starts every actor (the first time) and runs until the job stops, no event
  // is left, or the clock would pass `until`.
  void run(TimeNs until = std::numeric_limits<TimeNs>::max());
  // The node's process is replaced by a fresh one that rejoin()s the job.
  void restart(NodeId id);

 private:
  TrainingJob job_;
  FakeWorld world_;
  RunMonitor monitor_;
  Tracer* tracer_;
  std::vector<std::unique_ptr<Actor>> actors_;
  bool started_ = false;
};

}  // namespace geotrain::testing
