// Picking about the k largest |v| of a large tensor without sorting it
// (REFERENCE.md section 5, BSC and DGC): the threshold is the k_s-th largest
// |v| in a strided sample (0.5% of the entries, at least 10 / density, from a
// seeded offset), k_s = sample size x density; then one pass keeps the entries
// at or above it, at most `cap` of them. Exact std::nth_element over the whole
// tensor is 10x slower (bench/codec_bench.cc).
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <random>
#include <vector>

namespace geotrain {

// Indices (ascending) of the entries of v with |v_i| >= the sampled threshold
// for `density` (0 < density <= 1), at most `cap`.
std::vector<std::uint32_t> select_top(const Eigen::VectorXf& v, double density, std::size_t cap, std::mt19937_64& rng);

}  // namespace geotrain
