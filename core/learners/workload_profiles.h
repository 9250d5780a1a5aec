// Named workload profiles: a model's per-tensor sizes and its training compute
// per sample, for traffic and time studies where accuracy is not modelled
// (ProfileModel, core/learners/profile_model.h). The published architectures are
// built layer by layer from their definitions, so a tensor list is checkable
// against the published parameter count (tests/profile_test.cc); the shipped
// trainable models are read from the models themselves.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/registry.h"

namespace geotrain {

struct WorkloadProfile {
  std::string name;
  std::string description;
  std::vector<std::uint64_t> tensors;  // element counts, in the model's layer order (input side first)
  double train_flops_per_sample = 0;   // forward + backward
  std::uint64_t parameters() const;
};

// Every profile, in a fixed order: resnet50, vgg16, bert-base, gpt2-small,
// then the shipped trainable models on Fashion-MNIST's shape.
const std::vector<WorkloadProfile>& workload_profiles();
// nullptr when no profile has this name.
const WorkloadProfile* find_profile(const std::string& name);

}  // namespace geotrain
