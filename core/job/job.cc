#include "core/job/job.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/base/numeric_environment.h"
#include "core/data/dataset_registry.h"
#include "core/data/dc_data.h"
#include "core/json/json_reader.h"
#include "core/layers/dgt/dgt_node.h"
#include "core/layers/p3/p3_node.h"
#include "core/layers/sched/sched_node.h"
#include "core/layers/shard/shard_node.h"
#include "core/payload/wire.h"
#include "core/policies/policy_registry.h"
#include "core/roles/global_server.h"
#include "core/roles/local_server.h"
#include "core/roles/state_server.h"
#include "core/roles/worker.h"

namespace geotrain {

const LearnerInfo& learner_info(const Scenario& sc) {
  if (const LearnerInfo* l = find_learner(sc.model.kind)) return *l;
  throw std::invalid_argument("unknown model '" + sc.model.kind + "'");
}

std::unique_ptr<Learner> make_learner(const ModelSpec& spec, const TrainTest& data) {
  pin_numeric_environment();  // the same products on every machine
  if (const LearnerInfo* l = find_learner(spec.kind)) return l->make(spec, data);
  throw std::invalid_argument("unknown model '" + spec.kind + "'");
}

void describe_learner(const Scenario& sc, RunResult* r) {
  const LearnerInfo& l = learner_info(sc);
  r->metrics = l.metrics;
  r->accuracy_modelled = l.caps.metrics_modelled;
  r->target = sc.stop.target;
  r->target_metric = sc.stop.target_metric;
}

TrainTest load_dataset(const DatasetSpec& spec, std::uint64_t seed) {
  if (const DatasetInfo* d = find_entry(dataset_registry(), spec.kind)) return d->load(spec, seed);
  throw std::invalid_argument("unknown dataset '" + spec.kind + "'");
}

namespace {
std::vector<int> workers_per_dc(const Topology& t) {
  std::vector<int> v;
  for (const auto& d : t.dcs) v.push_back(d.workers);
  return v;
}
std::unique_ptr<Actor> make_role(Runtime& rt, const NodeSpec& n, const RoleContext& ctx) {
  switch (n.role) {
    case Role::kWorker: return std::make_unique<Worker>(rt, n, ctx);
    case Role::kLocalServer: return std::make_unique<LocalServer>(rt, n, ctx);
    case Role::kGlobalServer: return std::make_unique<GlobalServer>(rt, n, ctx);
    case Role::kStateServer: return std::make_unique<StateServer>(rt, n, ctx);
  }
  throw std::logic_error("unknown role");
}
}  // namespace

namespace {
// A part of the scenario that only the loaded data can judge (k above the samples,
// steps that do not divide the features, a file that is not what it should be):
// an input error naming the scenario and its section, as the loader's are.
template <class Fn>
auto input_checked(const Scenario& sc, const char* pointer, Fn fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const ConfigError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw ConfigError(sc.file, pointer, e.what());
  } catch (const std::runtime_error& e) {
    throw ConfigError(sc.file, pointer, e.what());
  }
}
}  // namespace

TrainingJob::TrainingJob(const Scenario& sc)
    : sc_(sc),
      dep_(plan_deployment(sc)),
      dc_data_(sc.dataset.per_dc.empty() ? DcData{}
                                         : input_checked(sc, "/dataset",
                                                         [&] {
                                                           std::vector<std::string> dcs;
                                                           for (const auto& d : sc.topology.dcs) dcs.push_back(d.name);
                                                           return load_dc_data(sc.dataset, sc.partition, dcs,
                                                                               workers_per_dc(sc.topology), sc.seed);
                                                         })),
      data_(sc.dataset.per_dc.empty() ? input_checked(sc, "/dataset", [&] { return load_dataset(sc.dataset, sc.seed); })
                                      : std::move(dc_data_.all)),
      learner_(input_checked(sc, "/model", [&] { return make_learner(sc.model, data_); })),
      shards_(sc.dataset.per_dc.empty()
                  ? input_checked(
                        sc, "/partition",
                        [&] { return partition(data_.train, sc.partition, workers_per_dc(sc.topology), sc.seed); })
                  : std::move(dc_data_.shards)),
      initial_(learner_->init(sc.seed)),
      footprint_(learner_->footprint(initial_, data_.train.x.cols())),
      compute_(sc.topology, sc.compute, dep_),
      dc_of_(std::make_shared<const std::vector<int>>([this] {
        std::vector<int> v;
        for (const auto& node : dep_.nodes) v.push_back(node.dc);
        return v;
      }())) {
  const int servers = int(dep_.global_servers.size());
  if (servers <= 1) return;
  shard_map_ = std::make_unique<ShardMap>(initial_, servers, sc.multigps.split_above);
  shard_initial_.resize(std::size_t(servers));
  for (const ShardSlice& s : shard_map_->slices()) {
    const ParamBlock& b =
        *std::find_if(initial_.begin(), initial_.end(), [&](const ParamBlock& x) { return x.key == s.key; });
    shard_initial_[std::size_t(s.server)].push_back(
        {s.key, b.values.segment(Eigen::Index(s.offset), Eigen::Index(s.count))});
  }
}

namespace {
std::uint64_t message_bytes(std::uint64_t floats, std::uint64_t blocks) {
  return kMessageHeaderBytes + kPayloadHeaderBytes + blocks * (kBlockHeaderBytes + kCodedHeaderBytes) +
         2 * sizeof(float) * floats;
}
}  // namespace

std::uint64_t TrainingJob::max_message_bytes() const {
  return message_bytes(std::max(footprint_.update_floats, footprint_.model_floats),
                       std::max(footprint_.update_blocks, footprint_.model_blocks));
}

std::uint64_t TrainingJob::expected_message_bytes() const {
  const LearnerFootprint& f = footprint_;
  return message_bytes(std::max(f.expected_update(), f.expected_model()), std::max(f.update_blocks, f.model_blocks));
}

std::uint64_t TrainingJob::dense_model_bytes() const {
  auto p = std::make_shared<Payload>();
  p->blocks = initial_;
  return make_message(MsgKind::kPullResponse, 0, 0, 0, std::move(p)).wire_bytes;
}

std::unique_ptr<Actor> TrainingJob::make_actor(NodeId id, Runtime& rt, RunMonitor* monitor, Tracer* tracer,
                                               CheckpointStore* checkpoints, std::int64_t checkpoint_every,
                                               RunRecords* records) const {
  RoleContext ctx;
  ctx.learner = learner_.get();
  ctx.caps = learner_info(sc_).caps;
  ctx.rules = learner_->block_rules();
  ctx.train = &data_.train;
  ctx.shards = &shards_;
  ctx.initial = &initial_;
  ctx.optimizer = sc_.optimizer;
  ctx.batch_size = sc_.batch_size;
  ctx.monitor = monitor;
  ctx.tracer = tracer;
  const NodeSpec& n = dep_.nodes.at(id);
  const PolicyInfo& policy = *find_policy(sc_.policy);
  ctx.policy = policy.make(sc_.policy_params, n.role);
  if (n.role == Role::kLocalServer) ctx.parent_policy = policy.make(sc_.policy_params, Role::kGlobalServer);
  ctx.checkpoints = checkpoints;
  ctx.checkpoint_every = checkpoint_every;
  ctx.records = records;
  ctx.state_server = dep_.state_server;
  ctx.compression = sc_.compression;
  ctx.seed = sc_.seed;
  ctx.dc_of = dc_of_;
  if (shard_map_) {
    // MultiGPS: each server runs over its part; the children and servers talk through the
    // sharding layer, and the first server's layer (not its role) runs the monitor.
    const auto& gs = dep_.global_servers;
    const auto it = std::find(gs.begin(), gs.end(), id);
    if (it != gs.end()) ctx.initial = &shard_initial_[std::size_t(it - gs.begin())];
    if (it == gs.end() && n.parent != dep_.global_server) return make_role(rt, n, ctx);
    ctx.monitor = nullptr;
    auto shard = std::make_unique<ShardNode>(rt, *shard_map_, gs, id == dep_.global_server ? monitor : nullptr);
    shard->wrap(make_role(*shard, n, ctx));
    return shard;
  }
  if (sc_.schedule.any() && SchedNode::needed(sc_.schedule, dep_, id)) {
    // The scheduling layer sits between the role and the runtime: the role never knows.
    auto sched = std::make_unique<SchedNode>(rt, sc_.schedule, sc_.topology, sc_.network.initial_cwnd_bytes, dep_,
                                             dense_model_bytes(), ctx.rules);
    sched->wrap(make_role(*sched, n, ctx));
    return sched;
  }
  if (sc_.p3.on()) {
    // P3 sits between the role and the runtime: the role never knows.
    auto p3 = std::make_unique<P3Node>(rt, sc_.p3, initial_);
    p3->wrap(make_role(*p3, n, ctx));
    return p3;
  }
  if (!sc_.dgt.on()) return make_role(rt, n, ctx);
  // DGT sits between the role and the runtime: the role never knows.
  auto dgt = std::make_unique<DgtNode>(rt, sc_.dgt, *dc_of_, sc_.topology, initial_);
  dgt->wrap(make_role(*dgt, n, ctx));
  return dgt;
}

}  // namespace geotrain
