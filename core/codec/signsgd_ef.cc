#include "core/codec/signsgd_ef.h"

#include <array>
#include <cmath>
#include <map>

#include "core/base/bytes.h"

namespace geotrain {
namespace {

class SignEf : public Encoder {
 public:
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) override {
    const std::size_t n = std::size_t(x.size());
    Eigen::VectorXf& e = residual_[key];
    if (e.size() != x.size()) e = Eigen::VectorXf::Zero(x.size());
    e += x;  // p
    CodedBlock b;
    b.key = key;
    b.n = std::uint32_t(n);
    b.codec = kSignCodecId;
    b.bytes.assign(4 + (n + 7) / 8, 0);
    const float scale = n ? e.cwiseAbs().sum() / float(n) : 0.0f;
    store_raw<float>(b.bytes.data(), scale);
    std::uint8_t* out = b.bytes.data() + 4;
    float* p = e.data();
    for (std::size_t i = 0; i < n; ++i) {
      const bool plus = p[i] >= 0;
      out[i / 8] |= std::uint8_t(plus) << (i % 8);
      p[i] -= plus ? scale : -scale;  // e = p - sent
    }
    return b;
  }

 private:
  std::map<std::uint32_t, Eigen::VectorXf> residual_;
};

}  // namespace

void validate_sign(const CodedBlock& b) {
  if (b.bytes.size() != 4 + (std::size_t(b.n) + 7) / 8) throw CodecError("signsgd block: length is not 4 + n/8");
  const float scale = load_raw<float>(b.bytes.data());
  if (!std::isfinite(scale) || scale < 0) throw CodecError("signsgd block: bad scale");
  if (b.n % 8 && (b.bytes.back() >> (b.n % 8)) != 0) throw CodecError("signsgd block: padding bits set");
}

void add_sign(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  const float s = scale * load_raw<float>(b.bytes.data());
  const std::uint8_t* bits = b.bytes.data() + 4;
  float* out = into.data();
  // Eight signs per byte: a table of the 256 patterns, as +-1, added eight floats at a time.
  static const auto table = [] {
    std::array<std::array<float, 8>, 256> t{};
    for (int byte = 0; byte < 256; ++byte)
      for (int j = 0; j < 8; ++j) t[std::size_t(byte)][std::size_t(j)] = ((byte >> j) & 1) ? 1.0f : -1.0f;
    return t;
  }();
  const std::size_t whole = b.n / 8;
  for (std::size_t k = 0; k < whole; ++k) {
    const float* t = table[bits[k]].data();
    float* o = out + 8 * k;
    for (int j = 0; j < 8; ++j) o[j] += s * t[j];
  }
  for (std::size_t i = 8 * whole; i < b.n; ++i) out[i] += ((bits[i / 8] >> (i % 8)) & 1) ? s : -s;
}

std::unique_ptr<Encoder> make_signsgd_ef_encoder() { return std::make_unique<SignEf>(); }

}  // namespace geotrain
