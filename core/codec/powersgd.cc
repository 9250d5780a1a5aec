#include "core/codec/powersgd.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <random>

#include "core/base/bytes.h"

namespace geotrain {
namespace {

std::uint32_t rows_for(std::uint32_t n) {
  std::uint32_t r = std::uint32_t(std::sqrt(double(n)));
  while (r > 1 && n % r) --r;
  return r;
}

}  // namespace

std::optional<std::uint64_t> powersgd_wire_bytes(int rank, std::uint64_t n) {
  if (n > 0xFFFFFFFFull) return std::nullopt;
  const std::uint32_t rows = rows_for(std::uint32_t(n)), cols = rows ? std::uint32_t(n / rows) : 0;
  if (rows < 2 || std::uint32_t(rank) >= rows) return std::nullopt;
  return 12 + 4 * std::uint64_t(rank) * (rows + cols);
}

namespace {

class PowerSgd : public Encoder {
 public:
  PowerSgd(int rank, std::uint64_t seed) : r_(rank), rng_(seed) {}
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) override {
    const std::uint32_t n = std::uint32_t(x.size());
    const std::uint32_t rows = rows_for(n), cols = rows ? n / rows : 0;
    if (rows < 2 || std::uint32_t(r_) >= rows) return std::nullopt;
    State& s = state_[key];
    if (s.e.size() != x.size()) {
      s.e = Eigen::VectorXf::Zero(x.size());
      std::normal_distribution<float> d;
      s.q.resize(cols, r_);
      for (Eigen::Index i = 0; i < s.q.size(); ++i) s.q.data()[i] = d(rng_);
    }
    s.e += x;
    Eigen::Map<Eigen::MatrixXf> m(s.e.data(), rows, cols);
    Eigen::MatrixXf p = m * s.q;
    orthonormalise(p);
    s.q = m.transpose() * p;
    m.noalias() -= p * s.q.transpose();  // what was not sent stays
    CodedBlock b;
    b.key = key;
    b.n = n;
    b.codec = kPowerSgdCodecId;
    b.bytes.resize(12 + 4 * std::size_t(r_) * (rows + cols));
    store_raw<std::uint32_t>(b.bytes.data(), rows);
    store_raw<std::uint32_t>(b.bytes.data() + 4, cols);
    store_raw<std::uint32_t>(b.bytes.data() + 8, std::uint32_t(r_));
    std::memcpy(b.bytes.data() + 12, p.data(), 4 * std::size_t(p.size()));
    std::memcpy(b.bytes.data() + 12 + 4 * std::size_t(p.size()), s.q.data(), 4 * std::size_t(s.q.size()));
    return b;
  }

 private:
  struct State {
    Eigen::VectorXf e;
    Eigen::MatrixXf q;
  };
  static void orthonormalise(Eigen::MatrixXf& p) {  // Gram-Schmidt, column by column
    for (Eigen::Index c = 0; c < p.cols(); ++c) {
      for (Eigen::Index k = 0; k < c; ++k) p.col(c) -= p.col(k).dot(p.col(c)) * p.col(k);
      const float norm = p.col(c).norm();
      if (norm > 1e-12f)
        p.col(c) /= norm;
      else
        p.col(c).setZero();
    }
  }
  int r_;
  std::mt19937_64 rng_;
  std::map<std::uint32_t, State> state_;
};

}  // namespace

void validate_powersgd(const CodedBlock& b) {
  if (b.bytes.size() < 12) throw CodecError("powersgd block: no header");
  const std::uint64_t rows = load_raw<std::uint32_t>(b.bytes.data()),
                      cols = load_raw<std::uint32_t>(b.bytes.data() + 4),
                      r = load_raw<std::uint32_t>(b.bytes.data() + 8);
  if (rows * cols != b.n || r < 1 || r > rows || r > cols || b.bytes.size() != 12 + 4 * r * (rows + cols))
    throw CodecError("powersgd block: shape does not match its length");
  // Finite factors can still multiply out past float's range: bound every entry of P Q^T by
  // rank x max|P| x max|Q| (far above any gradient, far below infinity).
  double max_p = 0, max_q = 0;
  const std::size_t q_at = 12 + 4 * r * rows;
  for (std::size_t i = 12; i < b.bytes.size(); i += 4) {
    const float v = load_raw<float>(b.bytes.data() + i);
    if (!std::isfinite(v)) throw CodecError("powersgd block: non-finite factor");
    double& m = i < q_at ? max_p : max_q;
    m = std::max(m, double(std::fabs(v)));
  }
  if (double(r) * max_p * max_q > 1e30) throw CodecError("powersgd block: factors too large");
}

void add_powersgd(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  const Eigen::Index rows = load_raw<std::uint32_t>(b.bytes.data()), cols = load_raw<std::uint32_t>(b.bytes.data() + 4),
                     r = load_raw<std::uint32_t>(b.bytes.data() + 8);
  Eigen::MatrixXf p(rows, r), q(cols, r);
  std::memcpy(p.data(), b.bytes.data() + 12, 4 * std::size_t(p.size()));
  std::memcpy(q.data(), b.bytes.data() + 12 + 4 * std::size_t(p.size()), 4 * std::size_t(q.size()));
  Eigen::Map<Eigen::MatrixXf> m(into.data(), rows, cols);
  m.noalias() += scale * p * q.transpose();
}

std::unique_ptr<Encoder> make_powersgd_encoder(int rank, std::uint64_t seed) {
  return std::make_unique<PowerSgd>(rank, seed);
}

}  // namespace geotrain
