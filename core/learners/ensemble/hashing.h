// Counter-based randomness for the tree learners: a draw that depends only on
// (seed, what, which), never on which worker computes it or in what order, so
// row subsampling, bootstrap weights, stochastic rounding and the sketch's
// sample are the same on 4 workers as on one.
#pragma once
#include <cstdint>

namespace geotrain {

// splitmix64's finaliser: a bijection that scatters nearby counters.
inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

inline std::uint64_t hash3(std::uint64_t seed, std::uint64_t what, std::uint64_t which) {
  return mix64(mix64(mix64(seed) ^ what) ^ which);
}

// Uniform in [0, 1), 53 bits.
inline double unit_hash(std::uint64_t seed, std::uint64_t what, std::uint64_t which) {
  return double(hash3(seed, what, which) >> 11) * 0x1.0p-53;
}

}  // namespace geotrain
