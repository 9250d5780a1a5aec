#include "real/checksum.h"

#include <nmmintrin.h>

#include <array>
#include <cstring>

namespace geotrain::real {
namespace {

std::array<std::uint32_t, 256> make_table() {
  std::array<std::uint32_t, 256> t{};
  for (std::uint32_t i = 0; i < 256; ++i) {
    std::uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78u : c >> 1;
    t[i] = c;
  }
  return t;
}

std::uint32_t crc32c_table(std::uint32_t crc, const std::uint8_t* p, std::size_t n) {
  static const std::array<std::uint32_t, 256> table = make_table();
  crc = ~crc;
  while (n--) crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return ~crc;
}

constexpr std::uint32_t kPoly = 0x82F63B78u;  // Castagnoli, reflected

// a * b modulo the CRC polynomial, in the reflected bit order CRCs use.
std::uint32_t multmodp(std::uint32_t a, std::uint32_t b) {
  std::uint32_t m = 1u << 31, p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) == 0) break;
    }
    m >>= 1;
    b = (b & 1) ? (b >> 1) ^ kPoly : b >> 1;
  }
  return p;
}

// x^(8 * bytes) modulo the polynomial: the operator that shifts a CRC past `bytes` zeros.
std::uint32_t shift_operator(std::size_t bytes) {
  static const std::array<std::uint32_t, 64> x2n = [] {
    std::array<std::uint32_t, 64> t{};
    t[0] = 1u << 30;  // x^1
    for (std::size_t k = 1; k < t.size(); ++k) t[k] = multmodp(t[k - 1], t[k - 1]);
    return t;
  }();
  std::uint32_t p = 1u << 31;  // x^0
  std::uint64_t n = std::uint64_t(bytes) * 8;
  for (unsigned k = 0; n; n >>= 1, ++k)
    if (n & 1) p = multmodp(x2n[k], p);
  return p;
}

// CRC of A followed by B, from CRC(A), CRC(B) and |B|.
std::uint32_t combine(std::uint32_t crc_a, std::uint32_t crc_b, std::size_t len_b) {
  return multmodp(shift_operator(len_b), crc_a) ^ crc_b;
}

__attribute__((target("sse4.2"))) std::uint64_t run(std::uint64_t reg, const std::uint8_t* p, std::size_t words) {
  for (std::size_t i = 0; i < words; ++i) {
    std::uint64_t v;
    std::memcpy(&v, p + 8 * i, 8);
    reg = _mm_crc32_u64(reg, v);
  }
  return reg;
}

// Three independent streams in one loop hide the instruction's 3-cycle latency;
// their CRCs are then combined.
__attribute__((target("sse4.2"))) std::uint32_t crc32c_hw(std::uint32_t crc, const std::uint8_t* p, std::size_t n) {
  constexpr std::size_t kMin = 3 * 4096;
  if (n >= kMin) {
    const std::size_t words = n / 24, part = words * 8;
    std::uint64_t a = ~crc, b = ~0u, c = ~0u;
    const std::uint8_t *pb = p + part, *pc = p + 2 * part;
    for (std::size_t i = 0; i < words; ++i) {
      std::uint64_t va, vb, vc;
      std::memcpy(&va, p + 8 * i, 8);
      std::memcpy(&vb, pb + 8 * i, 8);
      std::memcpy(&vc, pc + 8 * i, 8);
      a = _mm_crc32_u64(a, va);
      b = _mm_crc32_u64(b, vb);
      c = _mm_crc32_u64(c, vc);
    }
    crc = combine(combine(~std::uint32_t(a), ~std::uint32_t(b), part), ~std::uint32_t(c), part);
    p += 3 * part;
    n -= 3 * part;
  }
  std::uint64_t reg = run(~crc, p, n / 8);
  p += n / 8 * 8;
  n %= 8;
  std::uint32_t c32 = std::uint32_t(reg);
  while (n--) c32 = _mm_crc32_u8(c32, *p++);
  return ~c32;
}

}  // namespace

std::uint32_t crc32c(std::uint32_t crc, const std::uint8_t* data, std::size_t n) {
  static const bool hw = __builtin_cpu_supports("sse4.2");
  return hw ? crc32c_hw(crc, data, n) : crc32c_table(crc, data, n);
}

std::uint32_t crc32c_portable(std::uint32_t crc, const std::uint8_t* data, std::size_t n) {
  return crc32c_table(crc, data, n);
}

}  // namespace geotrain::real
