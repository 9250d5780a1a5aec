#include "core/codec/random_k.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "core/codec/sparse.h"

namespace geotrain {
namespace {

class RandomK : public Encoder {
 public:
  RandomK(double ratio, std::uint64_t seed) : ratio_(ratio), rng_(seed) {}
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) override {
    Eigen::VectorXf& e = residual_[key];
    if (e.size() != x.size()) e = Eigen::VectorXf::Zero(x.size());
    e += x;  // what is owed: this update and everything not sent before
    const std::uint32_t n = std::uint32_t(x.size());
    const std::uint32_t k = std::min<std::uint32_t>(n, std::uint32_t(std::ceil(ratio_ * n)));
    // k distinct indices (Floyd's algorithm), ascending.
    std::vector<std::uint32_t> idx;
    idx.reserve(k);
    std::vector<bool> taken(n, false);
    for (std::uint32_t j = n - k; j < n; ++j) {
      std::uint32_t t = std::uniform_int_distribution<std::uint32_t>(0, j)(rng_);
      if (taken[t]) t = j;
      taken[t] = true;
    }
    for (std::uint32_t i = 0; i < n; ++i)
      if (taken[i]) idx.push_back(i);
    CodedBlock b = encode_sparse(key, e, idx);
    for (std::uint32_t i : idx) e[Eigen::Index(i)] = 0;
    return b;
  }

 private:
  double ratio_;
  std::mt19937_64 rng_;
  std::map<std::uint32_t, Eigen::VectorXf> residual_;
};

}  // namespace

std::unique_ptr<Encoder> make_random_k_encoder(double ratio, std::uint64_t seed) {
  return std::make_unique<RandomK>(ratio, seed);
}

}  // namespace geotrain
