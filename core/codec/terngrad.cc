#include "core/codec/terngrad.h"

#include <cmath>
#include <random>

#include "core/base/bytes.h"

namespace geotrain {
namespace {

class TernGrad : public Encoder {
 public:
  explicit TernGrad(std::uint64_t seed) : rng_(seed) {}
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) override {
    const std::size_t n = std::size_t(x.size());
    CodedBlock b;
    b.key = key;
    b.n = std::uint32_t(n);
    b.codec = kTernGradCodecId;
    b.bytes.assign(4 + (n + 3) / 4, 0);
    const float mean = n ? x.mean() : 0.0f;
    const float sigma = n ? std::sqrt((x.array() - mean).square().mean()) : 0.0f;
    const float clip = 2.5f * sigma;
    const float scale = n ? std::min(x.cwiseAbs().maxCoeff(), clip) : 0.0f;
    store_raw<float>(b.bytes.data(), scale);
    if (scale <= 0) return b;
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    std::uint8_t* out = b.bytes.data() + 4;
    for (std::size_t i = 0; i < n; ++i) {
      const float c = std::min(std::abs(x[Eigen::Index(i)]), clip);
      if (u(rng_) < c / scale) out[i / 4] |= std::uint8_t((x[Eigen::Index(i)] < 0 ? 2 : 1) << (2 * (i % 4)));
    }
    return b;
  }

 private:
  std::mt19937 rng_;
};

}  // namespace

void validate_terngrad(const CodedBlock& b) {
  if (b.bytes.size() != 4 + (std::size_t(b.n) + 3) / 4) throw CodecError("terngrad block: length is not 4 + n/4");
  const float scale = load_raw<float>(b.bytes.data());
  if (!std::isfinite(scale) || scale < 0) throw CodecError("terngrad block: bad scale");
  const std::uint8_t* p = b.bytes.data() + 4;
  for (std::size_t j = 0; j < b.bytes.size() - 4; ++j)
    for (int k = 0; k < 4; ++k) {
      const int code = (p[j] >> (2 * k)) & 3;
      if (code == 3 || (code != 0 && 4 * j + std::size_t(k) >= b.n)) throw CodecError("terngrad block: bad code");
    }
}

void add_terngrad(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  const float s = scale * load_raw<float>(b.bytes.data());
  const float value[4] = {0.0f, s, -s, 0.0f};
  // A byte holds four codes: a 256-entry table of their four values turns the
  // decode into one 4-float add per byte (about 4x faster than code by code).
  Eigen::Array4f table[256];
  for (int byte = 0; byte < 256; ++byte)
    for (int k = 0; k < 4; ++k) table[byte][k] = value[(byte >> (2 * k)) & 3];
  const std::uint8_t* p = b.bytes.data() + 4;
  float* out = into.data();
  const std::size_t whole = b.n / 4;
  for (std::size_t j = 0; j < whole; ++j) Eigen::Map<Eigen::Array4f>(out + 4 * j) += table[p[j]];
  for (std::size_t i = 4 * whole; i < b.n; ++i) out[i] += value[(p[i / 4] >> (2 * (i % 4))) & 3];
}

std::unique_ptr<Encoder> make_terngrad_encoder(std::uint64_t seed) { return std::make_unique<TernGrad>(seed); }

}  // namespace geotrain
