// What every role of one job shares (read-only) besides its Runtime: the model,
// the learner, the data, the optimiser settings, and optional observers.
#pragma once
#include <memory>
#include <vector>

#include "core/codec/compression_spec.h"
#include "core/learners/learner.h"
#include "core/optim/optimizer.h"
#include "core/policies/sync_policy.h"
#include "core/roles/stream_encoder.h"
#include "core/runtime/trace.h"
#include "core/topology/deployment.h"

namespace geotrain {

class RunMonitor;
class CheckpointStore;
class RunRecords;

struct RoleContext {
  const Learner* learner = nullptr;
  LearnerCaps caps;              // what the learner declared (its registry entry): how the top applies a round
  std::vector<BlockRule> rules;  // how its blocks merge; empty: every block sums
  const Dataset* train = nullptr;
  const std::vector<std::vector<int>>* shards = nullptr;  // by worker index
  const ParamSet* initial = nullptr;                      // identical start on every node; outlives the roles
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
  // Codecs: the scenario's choice per stream, and each node's DC (a stream
  // between two DCs is a WAN one).
  CompressionSpec compression;
  std::shared_ptr<const std::vector<int>> dc_of;  // by node id (shared: a copy per node is quadratic)
  std::uint64_t seed = 1;
  // Where a single-process runtime gathers the outputs' records as the run
  // goes (core/run/run_records.h); null: each role keeps them for its report.
  RunRecords* records = nullptr;

  // (A node outside the deployment, e.g. a test's probe, counts as remote.)
  Tier tier(NodeId a, NodeId b) const {
    if (!dc_of) return Tier::kWan;
    const std::vector<int>& dc = *dc_of;
    const auto in = [&](NodeId n) { return n >= 0 && std::size_t(n) < dc.size(); };
    return in(a) && in(b) && dc[std::size_t(a)] == dc[std::size_t(b)] ? Tier::kLan : Tier::kWan;
  }
  // `me`'s encoder for its pushes to its parent, and for its pull responses
  // over `t`. A pull stream encodes changes with a fresh encoder each time
  // (the server's copy of the child's model is the error feedback); a global
  // server whose policy pulls changes sends them as `sparse` (every tensor,
  // whatever its size) unless the scenario chose a codec.
  StreamEncoder push_stream(const NodeSpec& me) const;
  StreamEncoder pull_stream(const NodeSpec& me, Tier t) const;
  // Do the pull responses `me` gets from its parent carry changes to add to its copy?
  bool pulls_changes(const NodeSpec& me) const;
};

// "lan_push", "wan_pull", ...: a stream's name in the scenario and the summary.
const char* stream_name(Tier t, bool push);
// Adds a stream's byte counts to a role's report, under "streams"/<name>
// (summed over the roles by core/job/role_stats).
void report_stream(nlohmann::json& report, const char* name, const StreamEncoder& s);

}  // namespace geotrain
