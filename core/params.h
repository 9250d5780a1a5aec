// Keyed parameter blocks: the unit every model, message and optimiser shares.
// A ParamSet is an ordered list of blocks; blocks with the same position in two
// sets have the same key and size (checked in the arithmetic helpers).
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace geotrain {

struct ParamBlock {
  std::uint32_t key = 0;
  Eigen::VectorXf values;
};

using ParamSet = std::vector<ParamBlock>;

// Same keys and sizes, all zeros.
ParamSet zeros_like(const ParamSet& p);
// acc += scale * x. REQUIRES: same layout.
void add_scaled(ParamSet& acc, const ParamSet& x, float scale = 1.0f);
void scale(ParamSet& p, float factor);
std::size_t element_count(const ParamSet& p);
// Largest absolute difference; REQUIRES: same layout.
float max_abs_diff(const ParamSet& a, const ParamSet& b);

}  // namespace geotrain
