// A generative adversarial network on images (Goodfellow et al. 2014), both
// networks as one model through the parameter server: the generator (noise
// -> hidden ReLU -> 2 hidden ReLU -> image, sigmoid) as blocks 0-5, the
// discriminator (image -> 2 hidden leaky ReLU -> hidden leaky ReLU -> logit)
// as blocks 6-11. A step's update holds both gradients: the discriminator's of
// its cross-entropy on the batch's real images and as many generated ones, the
// generator's of the non-saturating loss -log D(G(z)); the optimiser applies
// them together (simultaneous gradient descent). Metrics, in the feature space
// of a shipped classifier (feature_space.h): the Frechet distance of 2,000
// samples from fixed noise to the test set (primary, lower is better) and
// their inception-style score (higher).
#pragma once
#include <memory>

#include "core/learners/gd/feature_space.h"
#include "core/learners/learner.h"
#include "core/learners/nn/dense_net.h"

namespace geotrain {

class Gan : public Learner {
 public:
  Gan(int pixels, int noise, int hidden, std::shared_ptr<const FeatureSpace> space);
  std::string name() const override { return "gan"; }
  ParamSet init(std::uint64_t seed) const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  double train_flops_per_sample() const override;
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
  static const std::vector<MetricInfo>& static_metrics();
  // Images from the columns of z (noise x n).
  Eigen::MatrixXf generate(const ParamSet& p, const Eigen::MatrixXf& z) const { return g_.forward(p, z); }

 private:
  int noise_;
  DenseNet g_, d_;
  std::shared_ptr<const FeatureSpace> space_;
};

}  // namespace geotrain
