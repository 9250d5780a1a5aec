#include "core/learners/gd/gan.h"

#include <cmath>

namespace geotrain {
namespace {
constexpr int kEvalSamples = 2000;
constexpr std::uint64_t kEvalNoiseSeed = 20141231;

Eigen::MatrixXf gaussian(int rows, int cols, std::mt19937_64& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  Eigen::MatrixXf z(rows, cols);
  for (Eigen::Index i = 0; i < z.size(); ++i) z.data()[i] = n(rng);
  return z;
}
float softplus(float v) { return v > 0 ? v + std::log1p(std::exp(-v)) : std::log1p(std::exp(v)); }
float sigmoid(float v) { return 1.0f / (1.0f + std::exp(-v)); }
}  // namespace

Gan::Gan(int pixels, int noise, int hidden, std::shared_ptr<const FeatureSpace> space)
    : noise_(noise),
      g_({noise, hidden, 2 * hidden, pixels}, {Act::kRelu, Act::kRelu, Act::kSigmoid}, 0),
      d_({pixels, 2 * hidden, hidden, 1}, {Act::kLeakyRelu, Act::kLeakyRelu, Act::kLinear}, 6),
      space_(std::move(space)) {}

const std::vector<MetricInfo>& Gan::static_metrics() {
  static const std::vector<MetricInfo> m = {
      {"fid", false,
       "Frechet distance of 2,000 generated images to the test set, in the shipped classifier's features"},
      {"inception_score", true,
       "inception-style score of 2,000 generated images under the shipped classifier (1 to 10)"}};
  return m;
}

ParamSet Gan::init(std::uint64_t seed) const { return init_networks(seed, {&g_, &d_}); }

double Gan::train_flops_per_sample() const {
  // The generator forward and backward twice over (its step and the discriminator's), the discriminator on
  // a real and a generated image plus the generator's pass through it.
  return 2 * g_.train_flops_per_sample() + 3 * d_.train_flops_per_sample();
}

double Gan::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64& rng,
                         ParamSet* update) const {
  *update = zeros_like(p);
  const int b = int(batch.size());
  Eigen::MatrixXf real(d.features(), b);
  for (int i = 0; i < b; ++i) real.col(i) = d.x.col(batch[std::size_t(i)]);
  DenseNet::Tape gt, rt, ft;
  const Eigen::MatrixXf fake = g_.forward(p, gaussian(noise_, b, rng), &gt);
  const Eigen::MatrixXf lr = d_.forward(p, real, &rt), lf = d_.forward(p, fake, &ft);
  Eigen::MatrixXf dr(1, b), df(1, b), dg(1, b);
  double d_loss = 0, g_loss = 0;
  for (int i = 0; i < b; ++i) {
    d_loss += softplus(-lr(0, i)) + softplus(lf(0, i));  // -log D(x) - log(1 - D(G(z)))
    g_loss += softplus(-lf(0, i));                       // -log D(G(z))
    dr(0, i) = (sigmoid(lr(0, i)) - 1.0f) / float(b);
    df(0, i) = sigmoid(lf(0, i)) / float(b);
    dg(0, i) = (sigmoid(lf(0, i)) - 1.0f) / float(b);
  }
  d_.backward(p, rt, std::move(dr), update);
  d_.backward(p, ft, std::move(df), update);
  ParamSet through_d;  // the generator's loss reaches the discriminator's weights too: not its update
  const Eigen::MatrixXf dfake = d_.backward(p, ft, std::move(dg), &through_d, true);
  g_.backward(p, gt, dfake, update);
  return (d_loss + g_loss) / b;
}

std::vector<double> Gan::evaluate(const ParamSet& p, const Dataset& test) const {
  std::mt19937_64 rng(kEvalNoiseSeed);
  const Eigen::MatrixXf images = g_.forward(p, gaussian(noise_, kEvalSamples, rng));
  return {frechet_distance(space_->features(images), space_->features(test.x)),
          inception_score(space_->probabilities(images))};
}

}  // namespace geotrain
