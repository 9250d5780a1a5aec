// Picking about the k largest |v| of a large tensor without sorting it
// (REFERENCE.md section 5, BSC and DGC): the threshold is the k_s-th largest
// |v| in a strided sample (0.5% of the entries, at least 10 / density, from a
// seeded offset), k_s = sample size x density; then one pass keeps the entries
// at or above it. Exact std::nth_element over the whole tensor is about 10x
// slower (bench/codec_bench.cc).
#pragma once
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace geotrain {

// The sampled threshold for `density` (0 < density <= 1; 1: 0) over n
// entries whose magnitudes `abs_at(i)` gives.
template <class AbsAt>
float sampled_threshold(std::size_t n, double density, std::mt19937_64& rng, AbsAt abs_at) {
  if (n == 0 || density >= 1) return 0;
  const std::size_t want = std::max<std::size_t>(std::size_t(std::ceil(10.0 / density)), n / 200);
  const std::size_t sample = std::min(n, want);
  const std::size_t stride = n / sample;
  const std::size_t offset = std::uniform_int_distribution<std::size_t>(0, stride - 1)(rng);
  std::vector<float> s(sample);
  for (std::size_t j = 0; j < sample; ++j) s[j] = abs_at(offset + j * stride);
  const std::size_t k = std::max<std::size_t>(1, std::size_t(double(sample) * density));
  std::nth_element(s.begin(), s.begin() + std::ptrdiff_t(k - 1), s.end(), std::greater<float>());
  return s[k - 1];
}

}  // namespace geotrain
