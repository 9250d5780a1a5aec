// How much memory a run will take, estimated before its nodes are built, so a
// run that cannot fit is refused up front with the estimate and the limit
// instead of being killed by the kernel halfway. The coefficients are measured
// (docs/faults.md, "Limits"): per worker two copies of the model, per server
// four, per node and per WAN link the runtime's own state, and the data set
// once per process; and what the learner declares (Learner::footprint): its
// largest update once per node and once per child a server merges, the model
// at its largest, its tables and per-row caches.
#pragma once
#include <cstdint>
#include <string>

#include "core/job/job.h"

namespace geotrain {

struct MemoryEstimate {
  std::uint64_t bytes = 0;
  std::string breakdown;      // "128 workers x 4.91 MB + 3 servers x 9.80 MB + ..."
  bool packet_level = false;  // a simulation in ns-3 (the flow model would need less)
};

// `geotrain sim`: every node in one process. `packet_level`: ns-3 (per-node and
// per-link devices and queues) rather than the flow model.
MemoryEstimate estimate_sim_memory(const TrainingJob& job, bool packet_level);
// `geotrain launch`: one process per node, each with its own data set.
MemoryEstimate estimate_launch_memory(const TrainingJob& job);

// What a run may use: `limit_mb` when above 0 (the run's setting: the CLI takes
// it from GEOTRAIN_MEMORY_LIMIT_MB), else 80% of the memory the kernel reports
// available (/proc/meminfo MemAvailable); 0 when neither is known (no check).
std::uint64_t memory_limit_bytes(double limit_mb = 0);

// Throws ConfigError(`file`, "", ...) naming the estimate, its breakdown and
// the limit when the estimate exceeds memory_limit_bytes(limit_mb).
void check_memory(const MemoryEstimate& e, double limit_mb, const std::string& file, const std::string& what);

}  // namespace geotrain
