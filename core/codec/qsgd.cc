#include "core/codec/qsgd.h"

#include <cmath>
#include <random>

#include "core/base/bytes.h"

namespace geotrain {
namespace {

class Qsgd : public Encoder {
 public:
  Qsgd(int levels, std::uint64_t seed) : s_(levels), rng_(seed) {}
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) override {
    CodedBlock b;
    b.key = key;
    b.n = std::uint32_t(x.size());
    b.codec = kQsgdCodecId;
    b.bytes.resize(5 + std::size_t(x.size()));
    const float norm = x.norm();
    store_raw<float>(b.bytes.data(), norm);
    b.bytes[4] = std::uint8_t(s_);
    std::uint8_t* out = b.bytes.data() + 5;
    const float k = norm > 0 ? float(s_) / norm : 0.0f;
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const float r = std::abs(x[i]) * k;  // in [0, s]
      int level = int(r);
      if (level < s_ && u(rng_) < r - float(level)) ++level;
      out[i] = std::uint8_t((x[i] < 0 ? 0x80 : 0) | level);
    }
    return b;
  }

 private:
  int s_;
  std::mt19937 rng_;
};

}  // namespace

void validate_qsgd(const CodedBlock& b) {
  if (b.bytes.size() != 5ull + b.n) throw CodecError("qsgd block: length is not 5 + n");
  const float norm = load_raw<float>(b.bytes.data());
  const int s = b.bytes[4];
  if (!std::isfinite(norm) || norm < 0 || s < 1 || s > 127) throw CodecError("qsgd block: bad norm or levels");
  const std::uint8_t* p = b.bytes.data() + 5;
  int worst = 0;
  for (std::size_t i = 0; i < b.n; ++i) worst = std::max(worst, p[i] & 0x7f);
  if (worst > s) throw CodecError("qsgd block: level above s");
}

void add_qsgd(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  const float unit = scale * load_raw<float>(b.bytes.data()) / float(b.bytes[4]);
  const std::uint8_t* p = b.bytes.data() + 5;
  float* out = into.data();
  for (std::size_t i = 0; i < b.n; ++i) {
    const float v = unit * float(p[i] & 0x7f);
    out[i] += (p[i] & 0x80) ? -v : v;
  }
}

std::unique_ptr<Encoder> make_qsgd_encoder(int levels, std::uint64_t seed) {
  return std::make_unique<Qsgd>(levels, seed);
}

}  // namespace geotrain
