#include "core/learners/profile_model.h"

namespace geotrain {

ParamSet ProfileModel::init(std::uint64_t) const {
  ParamSet p;
  p.reserve(p_.tensors.size());
  for (std::size_t i = 0; i < p_.tensors.size(); ++i)
    p.push_back({std::uint32_t(i), Eigen::VectorXf::Zero(1), p_.tensors[i]});
  return p;
}

double ProfileModel::loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf&, const std::vector<int>&,
                                       ParamSet* grad) const {
  *grad = zeros_like(p);
  for (auto& b : *grad) b.values.setConstant(1e-3f);  // non-zero, so nothing treats the push as empty
  return 0;
}

Eigen::MatrixXf ProfileModel::logits(const ParamSet&, const Eigen::MatrixXf& x) const {
  return Eigen::MatrixXf::Zero(classes_, x.cols());
}

}  // namespace geotrain
