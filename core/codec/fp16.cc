#include "core/codec/fp16.h"

#include <cpuid.h>
#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace geotrain {
namespace {

constexpr float kMaxHalf = 65504.0f;

std::uint32_t bits_of(float f) {
  std::uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

float float_of(std::uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

// CPUID leaf 1: ECX bit 29 F16C, bit 28 AVX, bit 27 OSXSAVE; and the OS saves
// the AVX registers (XCR0 bits 1 and 2).
__attribute__((target("xsave"))) bool detect_f16c() {
  unsigned a, b, c, d;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  if (!(c & (1u << 29)) || !(c & (1u << 28)) || !(c & (1u << 27))) return false;
  return (_xgetbv(0) & 6) == 6;
}

bool has_f16c() {
  static const bool yes = detect_f16c();
  return yes;
}

__attribute__((target("avx,f16c"))) void to_half_f16c(const float* x, std::uint8_t* out, std::size_t n) {
  const __m256 hi = _mm256_set1_ps(kMaxHalf), lo = _mm256_set1_ps(-kMaxHalf);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_max_ps(_mm256_min_ps(_mm256_loadu_ps(x + i), hi), lo);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i), _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
  }
  for (; i < n; ++i) {
    const std::uint16_t h = half_from_float(std::clamp(x[i], -kMaxHalf, kMaxHalf));
    std::memcpy(out + 2 * i, &h, 2);
  }
}

__attribute__((target("avx,f16c"))) void add_half_f16c(const std::uint8_t* in, float scale, float* into,
                                                       std::size_t n) {
  const __m256 s = _mm256_set1_ps(scale);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 2 * i)));
    _mm256_storeu_ps(into + i, _mm256_add_ps(_mm256_loadu_ps(into + i), _mm256_mul_ps(s, v)));
  }
  for (; i < n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, in + 2 * i, 2);
    into[i] += scale * float_from_half(h);
  }
}

class Fp16Encoder : public Encoder {
 public:
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) override { return encode_fp16(key, x); }
};

}  // namespace

std::uint16_t half_from_float(float f) {
  const std::uint32_t x = bits_of(f);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t ax = x & 0x7fffffffu;
  if (ax > 0x7f800000u) return std::uint16_t(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));  // NaN stays NaN (quiet)
  if (ax >= 0x47800000u) return std::uint16_t(sign | 0x7c00u);                         // >= 65536: infinity
  if (ax < 0x38800000u) {  // below the smallest normal half: a subnormal, or zero
    const std::uint32_t e = ax >> 23;
    const std::uint32_t shift = 126 - e;
    if (shift > 24) return std::uint16_t(sign);
    const std::uint32_t mant = (ax & 0x7fffffu) | (e ? 0x800000u : 0);
    std::uint32_t m = mant >> shift;
    const std::uint32_t rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (m & 1))) ++m;
    return std::uint16_t(sign | m);
  }
  std::uint32_t h = (ax - 0x38000000u) >> 13;  // exponent rebiased from 127 to 15
  const std::uint32_t rem = ax & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) ++h;  // may carry into infinity: correct
  return std::uint16_t(sign | h);
}

float float_from_half(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1fu, man = h & 0x3ffu;
  if (exp == 0) return std::copysign(float(man) * 5.9604644775390625e-8f, sign ? -1.0f : 1.0f);  // man x 2^-24
  if (exp == 31) return float_of(sign | 0x7f800000u | (man << 13));
  return float_of(sign | ((exp + 112) << 23) | (man << 13));
}

CodedBlock encode_fp16(std::uint32_t key, const Eigen::VectorXf& x) {
  CodedBlock b;
  b.key = key;
  b.n = std::uint32_t(x.size());
  b.codec = kFp16CodecId;
  b.bytes.resize(2 * std::size_t(x.size()));
  if (has_f16c()) {
    to_half_f16c(x.data(), b.bytes.data(), std::size_t(x.size()));
  } else {
    for (Eigen::Index i = 0; i < x.size(); ++i) {
      const std::uint16_t h = half_from_float(std::clamp(x[i], -kMaxHalf, kMaxHalf));
      std::memcpy(b.bytes.data() + 2 * i, &h, 2);
    }
  }
  return b;
}

void validate_fp16(const CodedBlock& b) {
  if (b.bytes.size() != 2ull * b.n) throw CodecError("fp16 block: length is not 2 bytes per entry");
  for (std::size_t i = 0; i < b.n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, b.bytes.data() + 2 * i, 2);
    if ((h & 0x7c00u) == 0x7c00u) throw CodecError("fp16 block: infinity or NaN");
  }
}

void add_fp16(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  if (has_f16c()) return add_half_f16c(b.bytes.data(), scale, into.data(), b.n);
  for (std::size_t i = 0; i < b.n; ++i) {
    std::uint16_t h;
    std::memcpy(&h, b.bytes.data() + 2 * i, 2);
    into[Eigen::Index(i)] += scale * float_from_half(h);
  }
}

std::unique_ptr<Encoder> make_fp16_encoder() { return std::make_unique<Fp16Encoder>(); }

}  // namespace geotrain
