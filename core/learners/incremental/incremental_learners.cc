// The learner registry's entries for incremental learning over a pre-trained CNN
// (core/learners/learner_registry.h: what an entry says).
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/learners/classifier.h"
#include "core/learners/incremental/transfer.h"
#include "core/learners/learner_entries.h"
#include "core/learners/metrics.h"

namespace geotrain {
namespace {

// The pre-trained CNN's file (`base`, relative to the scenario's folder), and what writes the shipped one.
std::function<void(JsonReader&, ModelSpec&)> read_base(const std::string& shipped, const std::string& script,
                                                       bool hidden) {
  return [=](JsonReader& r, ModelSpec& m) {
    m.base = resolve_path(r.file(), r.string("base", shipped));
    if (!std::filesystem::is_regular_file(m.base))
      r.fail("base", "no pre-trained CNN at " + m.base + " (" + script + " writes " + shipped.substr(3) + ")");
    if (hidden && r.has("hidden"))
      for (auto h : r.integers("hidden", 1, 1 << 16)) m.hidden.push_back(int(h));
  };
}

std::unique_ptr<Learner> make_transfer(const std::string& name, const ModelSpec& m, const TrainTest& d,
                                       bool fine_tuning) {
  TransferOptions o;
  o.base = m.base;
  o.inputs = d.train.features();
  o.classes = d.train.classes;
  o.hidden = m.hidden;
  o.continue_head = fine_tuning;
  o.through_dense = !fine_tuning || m.param("frozen_dense") != 0;
  return std::make_unique<Transfer>(name, o);
}

}  // namespace

std::vector<LearnerInfo> incremental_learners() {
  return {
      {{"feature_extraction",
        "transfer by feature extraction: a pre-trained CNN, frozen up to its dense layer, feeds a new softmax (or MLP) "
        "head trained through the servers; only the head's blocks travel",
        {{"base", "../models/fmnist-cnn-classes0-4.bin",
          "the pre-trained CNN's parameter file (relative to the scenario's folder)"},
         {"hidden", "[]", "the new head's hidden ReLU layer sizes ([]: a softmax on the features)"}}},
       "incremental",
       {"labelled"},
       {},
       classifier_metrics(),
       {},
       read_base("../models/fmnist-cnn-classes0-4.bin", "scripts/train_transfer_bases.sh", true),
       [](const ModelSpec& m, const TrainTest& d) { return make_transfer("feature_extraction", m, d, false); }},
      {{"fine_tuning",
        "fine-tuning: a pre-trained CNN continues on new data with its convolutions frozen; the layers above start "
        "from the pre-trained values, and only they travel",
        {{"base", "../models/fmnist-cnn-first-half.bin",
          "the pre-trained CNN's parameter file (relative to the scenario's folder)"}}},
       "incremental",
       {"labelled"},
       {{"frozen_dense", 0, 0, 1, true, "1: the dense layer frozen too (only the output layer trains)"}},
       classifier_metrics(),
       {},
       read_base("../models/fmnist-cnn-first-half.bin", "scripts/train_transfer_bases.sh", false),
       [](const ModelSpec& m, const TrainTest& d) { return make_transfer("fine_tuning", m, d, true); }},
  };
}

}  // namespace geotrain
