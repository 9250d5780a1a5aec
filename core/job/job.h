// A training job assembled from a scenario, independent of any runtime: loads
// the data, builds the model, partitions the training set, plans the deployment
// and creates the actor for any node. A runtime creates one Runtime per node it
// hosts and asks the job for that node's actor.
#pragma once
#include <memory>
#include <vector>

#include "core/config/scenario.h"
#include "core/data/dc_data.h"
#include "core/job/compute_model.h"
#include "core/layers/shard/shard_map.h"
#include "core/learners/learner_registry.h"
#include "core/roles/role_context.h"
#include "core/run/results.h"
#include "core/runtime/runtime.h"
#include "core/topology/deployment.h"

namespace geotrain {

// The scenario's learner's registry entry (the loader has checked the name).
const LearnerInfo& learner_info(const Scenario& sc);
// Builds the scenario's learner for the loaded data. Throws std::invalid_argument
// for a model over kMaxModelParams.
std::unique_ptr<Learner> make_learner(const ModelSpec& spec, const TrainTest& data);
// What a run's result says about its learner, from the scenario alone:
// metrics, target, whether metrics are modelled.
void describe_learner(const Scenario& sc, RunResult* r);
// Loads (or generates) the scenario's dataset. Throws std::runtime_error.
TrainTest load_dataset(const DatasetSpec& spec, std::uint64_t seed);

class TrainingJob {
 public:
  explicit TrainingJob(const Scenario& sc);

  const Scenario& scenario() const { return sc_; }
  const Deployment& deployment() const { return dep_; }
  const Learner& learner() const { return *learner_; }
  const TrainTest& data() const { return data_; }
  // Where each data centre holds its own files (dataset.per_dc): the DCs that
  // do, in topology order, and each one's own test set; empty otherwise.
  const std::vector<std::string>& data_dcs() const { return dc_data_.dcs; }
  const std::vector<Dataset>& dc_tests() const { return dc_data_.tests; }
  // Each worker's units of data().train (samples, or queries), in worker order.
  const std::vector<std::vector<int>>& shards() const { return shards_; }
  const ComputeModel& compute_model() const { return compute_; }
  const ParamSet& initial_params() const { return initial_; }
  // What the whole model costs on the wire as one dense push or pull.
  std::uint64_t dense_model_bytes() const;
  // What the learner holds and sends beyond the initial model (Learner::footprint).
  const LearnerFootprint& footprint() const { return footprint_; }
  // The largest message any role of this job sends: its largest update or model,
  // every entry coded at a codec's worst (an index beside each value), every
  // block with a header. Real mode's frame limit for authenticated peers (within its cap).
  std::uint64_t max_message_bytes() const;
  // The same from the sizes a run can be expected to reach (LearnerFootprint's
  // expected_*): a job is refused up front only when these cannot fit a frame.
  std::uint64_t expected_message_bytes() const;

  // `monitor`, `tracer` and `checkpoints` may be null. The actor keeps references to rt and this job.
  std::unique_ptr<Actor> make_actor(NodeId id, Runtime& rt, RunMonitor* monitor, Tracer* tracer,
                                    CheckpointStore* checkpoints = nullptr, std::int64_t checkpoint_every = 0,
                                    RunRecords* records = nullptr) const;

 private:
  Scenario sc_;
  Deployment dep_;
  // per_dc only: each DC's files loaded, partitioned within it, joined (its sets
  // and shards moved on into data_ and shards_; its DC names and test sets kept).
  DcData dc_data_;
  TrainTest data_;
  std::unique_ptr<Learner> learner_;
  std::vector<std::vector<int>> shards_;
  ParamSet initial_;
  LearnerFootprint footprint_;
  ComputeModel compute_;
  // MultiGPS (more than one global server): the placement and each server's part of initial_.
  std::unique_ptr<ShardMap> shard_map_;
  std::vector<ParamSet> shard_initial_;
  std::shared_ptr<const std::vector<int>> dc_of_;  // by node id; one copy every role shares
};

}  // namespace geotrain
