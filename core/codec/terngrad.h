// `terngrad` (Wen et al., NeurIPS 2017): x clipped at 2.5 standard deviations,
// then each entry sent as scale x t_i with t_i in {-1, 0, 1}, t_i != 0 with
// probability |x_i| / scale (unbiased for the clipped x; scale = max |x_i|).
// Layout: f32 scale, ceil(n / 4) bytes of 2-bit codes (0: 0, 1: +1, 2: -1;
// 3 and non-zero padding are malformed). 16x smaller than fp32.
#pragma once
#include <memory>

#include "core/codec/encoder.h"

namespace geotrain {

constexpr std::uint8_t kTernGradCodecId = 4;

void validate_terngrad(const CodedBlock& b);
void add_terngrad(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);
std::unique_ptr<Encoder> make_terngrad_encoder(std::uint64_t seed);

}  // namespace geotrain
