// `qsgd` (Alistarh et al., NeurIPS 2017): x_i sent as norm x sign_i x l_i / s,
// with the level l_i in 0..s picked by stochastic rounding of |x_i| / norm x s
// (unbiased; norm = ||x||_2). Layout: f32 norm, u8 s, n bytes (bit 7: sign,
// bits 0-6: level <= s). s <= 127: 4x smaller than fp32.
#pragma once
#include <memory>

#include "core/codec/encoder.h"

namespace geotrain {

constexpr std::uint8_t kQsgdCodecId = 3;

void validate_qsgd(const CodedBlock& b);
void add_qsgd(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);
std::unique_ptr<Encoder> make_qsgd_encoder(int levels, std::uint64_t seed);

}  // namespace geotrain
