// The Learner seam: what every algorithm of the unified parameter-server
// pattern says about itself, so that roles, policies and codecs run it without
// knowing its name.
//
// An algorithm owns its parameters as keyed blocks (a ParamSet). Per round of
// local work it turns the model and a batch of its shard into an update with
// the same keys (`local_update`). Each block of an update carries a merge rule
// (`block_rules`): how two updates' blocks combine on their way up a server
// hierarchy (every rule is associative and commutative, so any relay tree and
// any arrival order give the same merge). At the top the merged update is
// applied either by the scenario's optimiser after dividing by the number of
// contributing steps (`Apply::kMeanThenOptimizer`: gradients, model changes)
// or by the algorithm itself (`Apply::kLearner`: sufficient statistics,
// histograms, candidate lists become the next model in `apply`).
//
// Phases: an algorithm whose round is not one step (a tree level: statistics
// up, decisions down; k-means: sums up, centroids down; KNN: queries down,
// candidates up) runs its phases as ordinary rounds. The phase it is in is
// part of its model (a block), so every worker and every server agrees on it
// through the pulled model, and `local_update` reads it to know what to
// compute. Such an algorithm declares `stale_ok = false` (LearnerCaps): each round
// must merge every worker's answer to the same model.
//
// Metrics: `metrics()` names what `evaluate` returns, with the direction that
// is better; the first is the primary one (the default `stop.target`).
//
// Learners are stateless (parameters live in ParamSets owned by roles), so one
// object serves every role in a process, and may be called from any thread.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/payload/block_rule.h"
#include "core/payload/params.h"

namespace geotrain {

// How the global server turns the merged update into the next model.
enum class Apply : std::uint8_t {
  kMeanThenOptimizer,  // divide by the contributing steps, then the scenario's optimiser (or policy's mix)
  kLearner,            // Learner::apply
};

// What an algorithm can run under, declared in its registry entry
// (core/learners/learner_registry.h). The scenario loader compares it with
// what the chosen policy, codecs, DGT, P3 and MultiGPS need
// (core/config/learner_fit.h) and refuses the rest with the JSON path and the
// reason; the job hands it to the roles.
struct LearnerCaps {
  bool stale_ok = true;                          // an update computed on an older model may be applied (asp, ssp, ...)
  bool model_averaging = true;                   // local steps pushing the model's change, models mixed or averaged
  bool cuttable = true;                          // blocks may be cut into parts and slices (dgt, p3, multigps)
  bool values_meaningful = true;                 // gaia's significance filter may read parameter values
  bool real_mode = true;                         // can run in `geotrain launch` (false: simulation only)
  bool metrics_modelled = true;                  // false: a workload profile, only traffic and time are modelled
  Precision update_precision = Precision::kAny;  // pushes: the strictest of its blocks' (BlockRule::precision)
  Precision model_precision = Precision::kAny;   // pulls (a tree's node indices must arrive exactly)
  Apply apply = Apply::kMeanThenOptimizer;
  // Online learning: each worker reads its shard once, in order, as arriving
  // data (no shuffling); the learner's finished() ends the run after the pass.
  bool stream = false;
};

// What a learner holds and sends beyond its initial model, declared so that a
// runtime can size what it accepts and estimate what a run needs before any of
// it is allocated: real mode derives each link's frame limit from the largest
// update and model (core/job/job.h max_message_bytes), the memory estimate counts
// all of it (core/job/memory_estimate.h). A test holds every learner's messages in
// a run to its declaration.
struct LearnerFootprint {
  std::uint64_t update_floats = 0, update_blocks = 0;  // the largest update local_update produces
  // The largest model over the run (a forest grows a level a round), the blocks
  // the server keeps for itself included.
  std::uint64_t model_floats = 0, model_blocks = 0;
  // What a run can be expected to need where the data decides (a tree's nodes
  // stop splitting as they empty): what the memory estimate counts; 0: the bound.
  std::uint64_t expected_update_floats = 0, expected_model_floats = 0;
  std::uint64_t expected_update() const { return expected_update_floats ? expected_update_floats : update_floats; }
  std::uint64_t expected_model() const { return expected_model_floats ? expected_model_floats : model_floats; }
  std::uint64_t fixed_bytes = 0;    // tables built once per process (random features' projection)
  std::uint64_t per_row_bytes = 0;  // what a worker caches per training row it learns from (mapped features)
};

struct MetricInfo {
  std::string name;
  bool higher_is_better = true;
  std::string help;  // one line: what is measured, on what
};

class Learner {
 public:
  virtual ~Learner() = default;
  virtual std::string name() const = 0;
  // The initial model, identical on every node for the same seed.
  virtual ParamSet init(std::uint64_t seed) const = 0;
  // Merge rules of the keys that do not sum; a key absent here sums, Precision::kAny.
  virtual std::vector<BlockRule> block_rules() const { return {}; }

  // One step of local work on the samples `batch` of `train` (indices): the
  // mean training loss, and the update (blocks in ascending key order, as
  // every ParamSet that travels) with p's layout in *update (a gradient
  // of that loss for the gradient-descent family). `rng` is the worker's own
  // stream: a learner that samples (episodes, noise) draws from it, one that
  // does not leaves it untouched.
  virtual double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch,
                              std::mt19937_64& rng, ParamSet* update) const = 0;
  // Apply::kLearner only: the merged update of `contributors` steps becomes the next model.
  virtual void apply(ParamSet& /*model*/, const ParamSet& /*merged*/, int /*contributors*/) const {}
  // Keys of model blocks the global server keeps for itself, in its checkpoints
  // too, and never sends on a pull (a tree learner's last histograms, from which
  // it derives the larger child's: only the smaller child's travel).
  virtual std::vector<std::uint32_t> server_only_keys() const { return {}; }
  // True when the model is complete (the last tree grown): the run ends there.
  virtual bool finished(const ParamSet& /*p*/) const { return false; }

  // What it holds and sends beyond `initial` (its init()); the default: updates
  // with the model's layout, a model that never grows, nothing cached. (A
  // workload profile's stand-ins count what they hold, not what they stand for:
  // they exist only in simulation, where nothing is framed.)
  // `train_rows`: the training set's rows (a bound for what the data decides, such as a tree's nodes).
  virtual LearnerFootprint footprint(const ParamSet& initial, std::int64_t train_rows) const;

  // Floating-point operations of one step per sample: what the compute-time model charges.
  virtual double train_flops_per_sample() const = 0;

  // What evaluate() returns, in order; [0] is the primary metric.
  virtual const std::vector<MetricInfo>& metrics() const = 0;
  // Every metric of p on the test set (a NaN for one that cannot be computed).
  virtual std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const = 0;
};

}  // namespace geotrain
