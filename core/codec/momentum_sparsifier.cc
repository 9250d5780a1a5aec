#include "core/codec/momentum_sparsifier.h"

#include <cmath>
#include <map>
#include <random>

#include "core/codec/sparse.h"
#include "core/codec/topk_select.h"

namespace geotrain {
namespace {

class MomentumSparsifier : public Encoder {
 public:
  MomentumSparsifier(const SparsifierOptions& o, std::uint64_t seed) : o_(o), m_(float(o.momentum)), rng_(seed) {}
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& g) override {
    State& s = state_[key];
    if (s.u.size() != g.size()) s.u = s.v = Eigen::VectorXf::Zero(g.size());
    float k = 1.0f;
    if (o_.clip_norm > 0) {
      const double norm = double(g.norm());
      if (norm > o_.clip_norm) k = float(o_.clip_norm / norm);
    }
    s.u = m_ * s.u + k * g;
    s.v += s.u;
    const double d = density(s.encodes++);
    const std::size_t cap = std::size_t(std::ceil(d * double(g.size())));
    const std::vector<std::uint32_t> idx = select_top(s.v, d, cap, rng_);
    CodedBlock b = encode_sparse(key, s.v, idx);
    for (std::uint32_t i : idx) s.u[Eigen::Index(i)] = s.v[Eigen::Index(i)] = 0;
    return b;
  }

 private:
  struct State {
    Eigen::VectorXf u, v;
    std::int64_t encodes = 0;
  };
  double density(std::int64_t t) const {
    const std::int64_t epoch = t / std::max(1, o_.epoch_encodes);
    if (epoch >= o_.warmup_epochs) return o_.density;
    return std::pow(o_.density, double(epoch + 1) / double(o_.warmup_epochs + 1));
  }
  SparsifierOptions o_;
  float m_;
  std::mt19937_64 rng_;
  std::map<std::uint32_t, State> state_;
};

}  // namespace

std::unique_ptr<Encoder> make_momentum_sparsifier(const SparsifierOptions& o, std::uint64_t seed) {
  return std::make_unique<MomentumSparsifier>(o, seed);
}

}  // namespace geotrain
