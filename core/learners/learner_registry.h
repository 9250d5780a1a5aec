// The registry of learners: every algorithm the parameter-server pattern
// trains is one entry. An entry says what it learns and from which kinds of
// data, its numeric parameters (the scenario loader reads them from the
// `model` object, defaults filled in), its metrics, what it runs under
// (LearnerCaps: the loader refuses the rest), and a factory that builds it
// for the loaded data. A new algorithm is its own file plus one entry in its
// family's list (core/learners/<family>/<family>_learners.cc, joined by
// learner_registry.cc in the order of core/learners/learner_entries.h).
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/registry.h"
#include "core/data/dataset.h"
#include "core/json/json_reader.h"
#include "core/learners/learner.h"
#include "core/learners/learner_spec.h"

namespace geotrain {

struct LearnerInfo {
  ComponentDoc doc;                  // name, one line (what it learns, from what), parameter help
  std::string family;                // gradient-descent, ensemble, ... (geotrain list groups by it)
  std::vector<std::string> data;     // dataset kinds it learns from (Dataset::kind)
  std::vector<NumericParam> params;  // read by the scenario loader
  std::vector<MetricInfo> metrics;   // what its Learner::metrics() returns; [0] primary
  LearnerCaps caps;
  // Its keys that are not numeric parameters (mlp's `hidden`); may be empty.
  std::function<void(JsonReader& r, ModelSpec& m)> read;
  // The learner for the loaded data. Throws std::invalid_argument (a model too large for the data).
  std::function<std::unique_ptr<Learner>(const ModelSpec& m, const TrainTest& data)> make;
};

// The built-in learners, family after family: what the scenario schema and
// the reference docs list.
const std::vector<LearnerInfo>& builtin_learners();
// Every learner this process knows: the built-ins, then those added by
// register_learner, in the order they were added. Entries are never removed
// or changed, so each pointer stays valid for the life of the process.
std::vector<const LearnerInfo*> learners();
const LearnerInfo* find_learner(const std::string& name);  // null when there is none
std::vector<std::string> learner_names();
// Adds a learner for the rest of this process, to be chosen by its name as a
// scenario's `model.kind` like a built-in one. A table of kinds, not of runs:
// safe to call while other threads load scenarios or run. Throws
// std::invalid_argument naming what is wrong: a name that is empty, not of
// lower-case letters, digits, '-' and '_', or taken; no factory; no metrics;
// no dataset kinds; a parameter named twice or with its default outside
// [min, max].
void register_learner(LearnerInfo info);
// The doc with the numeric parameters' help appended (what `geotrain list` prints).
ComponentDoc learner_doc(const LearnerInfo& l);

// Largest trainable model (4 bytes each; a role holds a few copies).
constexpr double kMaxModelParams = 2.5e8;
// Throws std::invalid_argument naming `what` when `params` exceeds kMaxModelParams.
void check_model_size(const std::string& what, double params);

}  // namespace geotrain
