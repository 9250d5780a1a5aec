// What every role of one job shares (read-only) besides its Runtime: the model,
// the data, the optimiser settings, and optional observers.
#pragma once
#include <memory>
#include <vector>

#include "core/config/scenario.h"
#include "core/models/model.h"
#include "core/policies/sync_policy.h"
#include "core/trace.h"

namespace geotrain {

class RunMonitor;
class CheckpointStore;

struct RoleContext {
  const Model* model = nullptr;
  const Dataset* train = nullptr;
  const std::vector<std::vector<int>>* shards = nullptr;  // by worker index
  const ParamSet* initial = nullptr;                      // identical start on every node
  OptimizerSpec optimizer;
  int batch_size = 32;
  RunMonitor* monitor = nullptr;             // global server only; may be null in real-mode non-GS processes
  Tracer* tracer = nullptr;                  // may be null
  std::shared_ptr<const SyncPolicy> policy;  // this role's own instance
  // A local server's view of its parent's rules (the global server's
  // instance: which of its acknowledgements and rounds count); else null.
  std::shared_ptr<const SyncPolicy> parent_policy;
  // Global server only, may be null: where to persist, and how often to snapshot.
  CheckpointStore* checkpoints = nullptr;
  std::int64_t checkpoint_every = 0;
  NodeId state_server = -1;  // the deployment's state server, -1 if none
};

}  // namespace geotrain
