#include "core/codec/segment.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/bytes.h"

namespace geotrain {
namespace {
constexpr std::size_t kRangeBytes = 8;

CodedBlock start(std::uint32_t key, std::uint32_t n, std::uint8_t codec, std::uint32_t offset, std::uint32_t count,
                 std::size_t body) {
  CodedBlock b;
  b.key = key;
  b.n = n;
  b.codec = codec;
  b.bytes.resize(kRangeBytes + body);
  store_raw<std::uint32_t>(b.bytes.data(), offset);
  store_raw<std::uint32_t>(b.bytes.data() + 4, count);
  return b;
}

// Checks the range header against the tensor and the body's length.
std::pair<std::uint32_t, std::uint32_t> checked_range(const CodedBlock& b, std::size_t (*body)(std::uint32_t)) {
  if (b.bytes.size() < kRangeBytes) throw CodecError("segment shorter than its header");
  const auto offset = load_raw<std::uint32_t>(b.bytes.data());
  const auto count = load_raw<std::uint32_t>(b.bytes.data() + 4);
  if (count == 0 || std::uint64_t(offset) + count > b.n) throw CodecError("segment range outside its tensor");
  if (b.bytes.size() != kRangeBytes + body(count)) throw CodecError("segment length does not match its count");
  return {offset, count};
}
std::size_t fp32_body(std::uint32_t count) { return std::size_t(count) * 4; }
std::size_t q4_body(std::uint32_t count) { return 8 + (std::size_t(count) + 1) / 2; }
}  // namespace

CodedBlock encode_segment(std::uint32_t key, std::uint32_t n, std::uint32_t offset, const float* x,
                          std::uint32_t count) {
  CodedBlock b = start(key, n, kSegmentCodecId, offset, count, fp32_body(count));
  std::memcpy(b.bytes.data() + kRangeBytes, x, fp32_body(count));
  return b;
}

CodedBlock encode_segment4(std::uint32_t key, std::uint32_t n, std::uint32_t offset, const float* x,
                           std::uint32_t count, float* residual) {
  CodedBlock b = start(key, n, kSegment4CodecId, offset, count, q4_body(count));
  float lo = INFINITY, hi = -INFINITY;
  for (std::uint32_t i = 0; i < count; ++i) {
    residual[i] += x[i];
    lo = std::min(lo, residual[i]);
    hi = std::max(hi, residual[i]);
  }
  if (!(hi > lo)) hi = lo;  // constant range: every entry is its mid-point
  const float width = (hi - lo) / 16.0f;
  std::uint8_t* out = b.bytes.data() + kRangeBytes;
  store_raw<float>(out, lo);
  store_raw<float>(out + 4, hi);
  out += 8;
  std::memset(out, 0, (std::size_t(count) + 1) / 2);
  for (std::uint32_t i = 0; i < count; ++i) {
    const int q = width > 0 ? std::clamp(int((residual[i] - lo) / width), 0, 15) : 0;
    out[i / 2] |= std::uint8_t(q << (4 * (i % 2)));
    residual[i] -= width > 0 ? lo + (float(q) + 0.5f) * width : lo;
  }
  return b;
}

std::pair<std::uint32_t, std::uint32_t> segment_range(const CodedBlock& b) {
  return {load_raw<std::uint32_t>(b.bytes.data()), load_raw<std::uint32_t>(b.bytes.data() + 4)};
}

void validate_segment(const CodedBlock& b) {
  const auto [offset, count] = checked_range(b, fp32_body);
  const std::uint8_t* p = b.bytes.data() + kRangeBytes;
  for (std::uint32_t i = 0; i < count; ++i)
    if (!std::isfinite(load_raw<float>(p + 4 * std::size_t(i)))) throw CodecError("non-finite segment value");
  (void)offset;
}

void add_segment(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  const auto [offset, count] = segment_range(b);
  const std::uint8_t* p = b.bytes.data() + kRangeBytes;
  for (std::uint32_t i = 0; i < count; ++i) into[Eigen::Index(offset + i)] += scale * load_raw<float>(p + 4 * i);
}

void validate_segment4(const CodedBlock& b) {
  checked_range(b, q4_body);
  const float lo = load_raw<float>(b.bytes.data() + kRangeBytes),
              hi = load_raw<float>(b.bytes.data() + kRangeBytes + 4);
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo) throw CodecError("bad segment4 range");
}

void add_segment4(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  const auto [offset, count] = segment_range(b);
  const std::uint8_t* p = b.bytes.data() + kRangeBytes;
  const float lo = load_raw<float>(p), hi = load_raw<float>(p + 4);
  const float width = (hi - lo) / 16.0f;
  p += 8;
  for (std::uint32_t i = 0; i < count; ++i) {
    const int q = (p[i / 2] >> (4 * (i % 2))) & 15;
    into[Eigen::Index(offset + i)] += scale * (width > 0 ? lo + (float(q) + 0.5f) * width : lo);
  }
}

}  // namespace geotrain
