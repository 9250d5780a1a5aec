// A workload profile as a Learner (core/learners/workload_profiles.h): each tensor
// is an empty stand-in (no entries: nothing to allocate, add or copy at each step; with
// one entry each, 1,024 DCs ran 1.5x slower) that messages charge at the real tensor's size
// (ParamBlock::stands_for), and a step charges the profile's compute, so sync
// policies and schedulers run unchanged on a model of any size at the cost of
// a tiny one. A codec charges a stand-in by its wire-size rule for the real
// tensor (CodecInfo::wire_bytes). Nothing is learnt: the gradient is empty and the loss zero;
// its registry entry declares metrics_modelled false and summary.json says so. Simulation only:
// real mode would send the stand-ins, not the bytes they stand for.
#pragma once
#include <utility>

#include "core/learners/classifier.h"
#include "core/learners/workload_profiles.h"

namespace geotrain {

class ProfileModel : public Classifier {
 public:
  ProfileModel(WorkloadProfile p, int classes) : p_(std::move(p)), classes_(classes) {}
  std::string name() const override { return "profile:" + p_.name; }
  ParamSet init(std::uint64_t seed) const override;
  double loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                           ParamSet* grad) const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  Eigen::MatrixXf logits(const ParamSet& p, const Eigen::MatrixXf& x) const override;
  double train_flops_per_sample() const override { return p_.train_flops_per_sample; }

 private:
  const WorkloadProfile p_;
  int classes_;
};

}  // namespace geotrain
