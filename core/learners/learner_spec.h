// A scenario's choice of learner (its `model` object): the registered name,
// every numeric hyperparameter with its default filled in, and the few keys
// that are not numbers.
#pragma once
#include <string>
#include <vector>

#include "core/base/registry.h"

namespace geotrain {

struct ModelSpec {
  std::string kind = "mlp";  // a name in core/learners/learner_registry.h
  NumericParams params;      // the entry's numeric parameters, defaults filled in
  std::vector<int> hidden;   // mlp, autoencoder: hidden layer sizes
  std::string profile;       // profile: a name from workload_profiles()
  std::string profile_file;  // profile: or a profile file (core/learners/profile_file.h), resolved
  std::string classifier;    // gan: the feature classifier's parameter file, resolved against the scenario's folder
  std::string base;          // feature_extraction, fine_tuning: the pre-trained CNN's parameter file, resolved so
  double param(const std::string& name) const { return params.at(name); }
};

}  // namespace geotrain
