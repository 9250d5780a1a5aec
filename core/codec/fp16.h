// `fp16`: every entry as an IEEE half (REFERENCE.md section 5: halves every
// link's bytes; compute stays fp32). Round to nearest even; F16C instructions
// where the CPU has them, the same results in software where it does not.
// Layout: n x u16. Lossy: relative error <= 2^-11 for normal halves, values
// beyond 65504 saturate to infinity (rejected at decode: non-finite).
#pragma once
#include <memory>

#include "core/codec/encoder.h"

namespace geotrain {

constexpr std::uint8_t kFp16CodecId = 2;

CodedBlock encode_fp16(std::uint32_t key, const Eigen::VectorXf& x);
void validate_fp16(const CodedBlock& b);
void add_fp16(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);
std::unique_ptr<Encoder> make_fp16_encoder();

}  // namespace geotrain

namespace geotrain {
// The portable conversions (round to nearest even), which the F16C path matches bit for bit.
std::uint16_t half_from_float(float f);
float float_from_half(std::uint16_t h);
}  // namespace geotrain
