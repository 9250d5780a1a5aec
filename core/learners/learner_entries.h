// What the learner registry's family files share (core/learners/learner_registry.cc
// joins their entries): each family's entries, and the helpers more than one uses.
#pragma once
#include <vector>

#include "core/learners/learner_registry.h"

namespace geotrain {

std::vector<LearnerInfo> gradient_descent_learners();  // core/learners/gd/gd_learners.cc
std::vector<LearnerInfo> reinforcement_learners();     // core/learners/rl/rl_learners.cc
std::vector<LearnerInfo> mapreduce_learners();         // core/learners/mapreduce/mapreduce_learners.cc
std::vector<LearnerInfo> ensemble_learners();          // core/learners/ensemble/ensemble_learners.cc
std::vector<LearnerInfo> online_learners();            // core/learners/online/online_learners.cc
std::vector<LearnerInfo> support_vector_learners();    // core/learners/svm/svm_learners.cc
std::vector<LearnerInfo> incremental_learners();       // core/learners/incremental/incremental_learners.cc
std::vector<LearnerInfo> workload_learners();          // core/learners/workload_learners.cc

inline int classes_of(const TrainTest& d) { return d.train.classes; }
inline int features_of(const TrainTest& d) { return d.train.features(); }

// Sufficient statistics merged exactly, one phase-locked iteration per round, applied by the learner.
inline LearnerCaps statistics_caps() {
  LearnerCaps c;
  c.stale_ok = c.model_averaging = c.cuttable = c.values_meaningful = false;
  c.update_precision = c.model_precision = Precision::kExact;
  c.apply = Apply::kLearner;
  return c;
}

}  // namespace geotrain
