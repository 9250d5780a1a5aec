#include "core/learners/learner_registry.h"

#include <cmath>
#include <iterator>
#include <stdexcept>

#include "core/learners/learner_entries.h"

namespace geotrain {

void check_model_size(const std::string& what, double params) {
  if (params > kMaxModelParams)
    throw std::invalid_argument(what + " of " + std::to_string(std::llround(params / 1e6)) +
                                "M parameters: more than the " + std::to_string(std::llround(kMaxModelParams / 1e6)) +
                                "M geotrain trains (each role keeps copies)");
}

ComponentDoc learner_doc(const LearnerInfo& l) {
  ComponentDoc d = numeric_doc(l.doc.name, l.doc.description, l.params);
  d.params.insert(d.params.begin(), l.doc.params.begin(), l.doc.params.end());
  return d;
}

const std::vector<LearnerInfo>& learner_registry() {
  // One family's entries after another (each family's file says what its entries are).
  static const std::vector<LearnerInfo> registry = [] {
    std::vector<LearnerInfo> all;
    for (auto family : {gradient_descent_learners, reinforcement_learners, mapreduce_learners, ensemble_learners,
                        online_learners, support_vector_learners, incremental_learners, workload_learners}) {
      std::vector<LearnerInfo> entries = family();
      all.insert(all.end(), std::make_move_iterator(entries.begin()), std::make_move_iterator(entries.end()));
    }
    return all;
  }();
  return registry;
}

}  // namespace geotrain
