// `signsgd_ef`, signSGD with error feedback (Karimireddy et al., ICML 2019):
// p = x + e, sent as scale x sign(p) with scale = ||p||_1 / n, and e = p - sent.
// Layout: f32 scale, ceil(n / 8) bytes of sign bits (1: +, 0: -; padding bits
// zero). 32x smaller than fp32.
#pragma once
#include <memory>

#include "core/codec/encoder.h"

namespace geotrain {

constexpr std::uint8_t kSignCodecId = 5;

void validate_sign(const CodedBlock& b);
void add_sign(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);
std::unique_ptr<Encoder> make_signsgd_ef_encoder();

}  // namespace geotrain
