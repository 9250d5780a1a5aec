// Keyed parameter blocks: the unit every model, message and optimiser shares.
// A ParamSet is an ordered list of blocks; blocks with the same position in two
// sets have the same key and size (checked in the arithmetic helpers).
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace geotrain {

struct ParamBlock {
  ParamBlock() = default;
  // Throws std::length_error if a stand-in's tensor has 2^32 elements or more.
  ParamBlock(std::uint32_t k, Eigen::VectorXf v, std::uint64_t stands = 0)
      : key(k), stands_for(std::uint32_t(stands)), values(std::move(v)) {
    if (stands > UINT32_MAX) throw std::length_error("a stand-in block of 2^32 elements or more");
  }

  std::uint32_t key = 0;
  // A workload profile's stand-in (core/learners/profile_model.h): the number of
  // elements the real tensor has, which messages are charged for while only
  // `values` is computed on; 0: a real block (values.size() elements). 32 bits,
  // beside the key: a block is 24 bytes, not 32, and a large simulation
  // scans millions of them (a ResNet-50 message lists 161).
  std::uint32_t stands_for = 0;
  Eigen::VectorXf values;
};
// The elements a block costs on the wire: its real tensor's for a stand-in.
inline std::uint64_t wire_elements(const ParamBlock& b) {
  return b.stands_for ? b.stands_for : std::uint64_t(b.values.size());
}

using ParamSet = std::vector<ParamBlock>;

// Same keys and sizes, all zeros.
ParamSet zeros_like(const ParamSet& p);
// acc += scale * x. REQUIRES: same layout.
void add_scaled(ParamSet& acc, const ParamSet& x, float scale = 1.0f);
void scale(ParamSet& p, float factor);
std::size_t element_count(const ParamSet& p);
// The block with this key; throws std::invalid_argument when p has none.
const Eigen::VectorXf& block_of(const ParamSet& p, std::uint32_t key);
Eigen::VectorXf& block_of(ParamSet& p, std::uint32_t key);
// Largest absolute difference; REQUIRES: same layout.
float max_abs_diff(const ParamSet& a, const ParamSet& b);

}  // namespace geotrain
