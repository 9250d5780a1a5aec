#include "core/learners/gd/autoencoder.h"

#include <algorithm>

namespace geotrain {
namespace {
std::vector<int> ae_sizes(int inputs, const std::vector<int>& enc) {
  std::vector<int> s{inputs};
  s.insert(s.end(), enc.begin(), enc.end());
  for (std::size_t i = enc.size() - 1; i-- > 0;) s.push_back(enc[i]);
  s.push_back(inputs);
  return s;
}
std::vector<Act> ae_acts(const std::vector<int>& enc) {
  std::vector<Act> a(enc.size(), Act::kRelu);
  a.back() = Act::kLinear;  // the code
  for (std::size_t i = 0; i + 1 < enc.size(); ++i) a.push_back(Act::kRelu);
  a.push_back(Act::kSigmoid);
  return a;
}
}  // namespace

Autoencoder::Autoencoder(int inputs, const std::vector<int>& encoder)
    : net_(ae_sizes(inputs, encoder), ae_acts(encoder)) {}

const std::vector<MetricInfo>& Autoencoder::static_metrics() {
  static const std::vector<MetricInfo> m = {
      {"test_mse", false, "reconstruction mean squared error per input on the test set"}};
  return m;
}

ParamSet Autoencoder::init(std::uint64_t seed) const { return init_networks(seed, {&net_}); }

double Autoencoder::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64&,
                                 ParamSet* update) const {
  *update = zeros_like(p);
  Eigen::MatrixXf x(d.features(), Eigen::Index(batch.size()));
  for (std::size_t i = 0; i < batch.size(); ++i) x.col(Eigen::Index(i)) = d.x.col(batch[i]);
  DenseNet::Tape tape;
  Eigen::MatrixXf diff = net_.forward(p, x, &tape) - x;
  const float n = float(x.size());
  const double loss = double(diff.squaredNorm()) / n;
  diff *= 2.0f / n;
  net_.backward(p, tape, std::move(diff), update);
  return loss;
}

std::vector<double> Autoencoder::evaluate(const ParamSet& p, const Dataset& d) const {
  double se = 0;
  constexpr Eigen::Index kChunk = 2048;
  for (Eigen::Index lo = 0; lo < d.x.cols(); lo += kChunk) {
    const Eigen::Index cnt = std::min(kChunk, d.x.cols() - lo);
    se += double((net_.forward(p, d.x.middleCols(lo, cnt)) - d.x.middleCols(lo, cnt)).squaredNorm());
  }
  return {se / double(std::max<Eigen::Index>(1, d.x.size()))};
}

}  // namespace geotrain
