// A dense autoencoder: the encoder's layers (ReLU, the last one the code,
// linear), the mirror-image decoder (ReLU, sigmoid output), trained to
// reconstruct its input under the mean squared error per pixel. Labels are
// not used. Metric: the test set's reconstruction MSE per pixel (primary).
#pragma once
#include "core/learners/learner.h"
#include "core/learners/nn/dense_net.h"

namespace geotrain {

class Autoencoder : public Learner {
 public:
  // encoder: the hidden sizes down to the code, e.g. {256, 32}.
  Autoencoder(int inputs, const std::vector<int>& encoder);
  std::string name() const override { return "autoencoder"; }
  ParamSet init(std::uint64_t seed) const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  double train_flops_per_sample() const override { return net_.train_flops_per_sample(); }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  static const std::vector<MetricInfo>& static_metrics();
  // Reconstructions of the columns of x.
  Eigen::MatrixXf reconstruct(const ParamSet& p, const Eigen::MatrixXf& x) const { return net_.forward(p, x); }

 private:
  DenseNet net_;
};

}  // namespace geotrain
