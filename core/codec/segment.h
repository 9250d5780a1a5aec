// A contiguous range of one tensor: what a push sent in parts carries per
// block (core/layers/dgt). Two formats: `segment`, the range as fp32 (lossless), and
// `segment4`, the range quantised to 4 bits (REFERENCE.md section 6, DGT mode
// 3: the 16 mid-points of uniform bins over [min, max]). Decoding adds the
// range into the tensor at its offset and leaves the rest alone, so the parts
// that arrived sum into a tensor whose missing ranges stay zero.
// Layouts: u32 offset, u32 count, then count x f32 (segment) or f32 min, f32
// max and ceil(count / 2) bytes of nibbles, low nibble first (segment4).
#pragma once
#include <Eigen/Dense>
#include <cstdint>

#include "core/codec/coded_block.h"

namespace geotrain {

constexpr std::uint8_t kSegmentCodecId = 7;
constexpr std::uint8_t kSegment4CodecId = 8;

// Whether a format is a range of a tensor: several may share one key.
inline bool is_segment_format(std::uint8_t codec) { return codec == kSegmentCodecId || codec == kSegment4CodecId; }

// x[offset, offset + count) of a tensor of n entries.
CodedBlock encode_segment(std::uint32_t key, std::uint32_t n, std::uint32_t offset, const float* x,
                          std::uint32_t count);
// The same range quantised to 4 bits; `residual` (count entries) is added
// first and left holding what the quantisation lost (error feedback).
CodedBlock encode_segment4(std::uint32_t key, std::uint32_t n, std::uint32_t offset, const float* x,
                           std::uint32_t count, float* residual);
// The range a segment block covers: {offset, count}. REQUIRES: validated.
std::pair<std::uint32_t, std::uint32_t> segment_range(const CodedBlock& b);

void validate_segment(const CodedBlock& b);
void add_segment(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);
void validate_segment4(const CodedBlock& b);
void add_segment4(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);

}  // namespace geotrain
