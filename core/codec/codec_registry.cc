#include "core/codec/codec_registry.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/codec/fp16.h"
#include "core/codec/momentum_sparsifier.h"
#include "core/codec/mpq.h"
#include "core/codec/powersgd.h"
#include "core/codec/qsgd.h"
#include "core/codec/random_k.h"
#include "core/codec/segment.h"
#include "core/codec/signsgd_ef.h"
#include "core/codec/sparse.h"
#include "core/codec/terngrad.h"

namespace geotrain {
namespace {

using WireRule =
    std::function<std::optional<std::uint64_t>(const NumericParams&, const EncoderContext&, std::uint64_t)>;

CodecInfo codec(const std::string& name, const std::string& line, std::vector<NumericParam> params, bool lossless,
                std::function<std::unique_ptr<Encoder>(const NumericParams&, const EncoderContext&)> make,
                WireRule wire_bytes, bool encodes_small = false, bool rounds_entries = false) {
  return {numeric_doc(name, line, params),
          std::move(params),
          lossless,
          encodes_small,
          rounds_entries,
          std::move(make),
          std::move(wire_bytes)};
}

// The sparse format's size for k entries: a count, then k indices and k values.
std::uint64_t sparse_bytes(std::uint64_t k) { return 4 + 8 * k; }
std::uint64_t at_rate(double rate, std::uint64_t n) {
  return std::min<std::uint64_t>(n, std::uint64_t(std::ceil(rate * double(n))));
}

const NumericParam kRho{"rho", 0.01, 1e-6, 1.0, false, "fraction of entries sent per push"};
const NumericParam kMomentum{"momentum", 0.9, 0.0, 0.999, false, "momentum correction factor m"};

}  // namespace

const std::vector<CodecInfo>& codec_registry() {
  static const std::vector<CodecInfo> r = {
      codec("none", "dense fp32, as the model holds it", {}, true, nullptr, nullptr),
      codec(
          "sparse", "only the non-zero entries, as (index, value) pairs", {}, true,
          [](const NumericParams&, const EncoderContext&) { return make_nonzeros_encoder(); },
          // A profile's tensor is taken as dense: its pairs would cost more than fp32, so it travels as is.
          [](const NumericParams&, const EncoderContext&, std::uint64_t) -> std::optional<std::uint64_t> {
            return std::nullopt;
          }),
      codec(
          "fp16", "every entry as an IEEE half (F16C where the CPU has it)", {}, false,
          [](const NumericParams&, const EncoderContext&) { return make_fp16_encoder(); },
          [](const NumericParams&, const EncoderContext&, std::uint64_t n) { return 2 * n; }, false, true),
      codec(
          "mpq", "mixed precision: small tensors fp16; large ones fp32 inside a DC, bsc across the WAN",
          {kRho, kMomentum}, false,
          [](const NumericParams& p, const EncoderContext& c) {
            return make_mpq_encoder(c, p.at("rho"), p.at("momentum"));
          },
          [](const NumericParams& p, const EncoderContext& c, std::uint64_t n) -> std::optional<std::uint64_t> {
            if (n < c.dense_below) return 2 * n;
            if (c.tier == Tier::kWan) return sparse_bytes(at_rate(p.at("rho"), n));
            return std::nullopt;
          },
          true),
      codec(
          "bsc", "Bi-Sparse: momentum correction, sampled top-rho threshold, error feedback", {kRho, kMomentum}, false,
          [](const NumericParams& p, const EncoderContext& c) {
            return make_momentum_sparsifier({p.at("rho"), p.at("momentum"), 0, 0, 1}, c.seed);
          },
          [](const NumericParams& p, const EncoderContext&, std::uint64_t n) {
            return sparse_bytes(at_rate(p.at("rho"), n));
          }),
      codec(
          "dgc", "Deep Gradient Compression: bsc plus local clipping and a density warm-up",
          {kRho,
           kMomentum,
           {"clip_norm", 0, 0, 1e9, false, "L2 norm a gradient is clipped to first; 0: none"},
           {"warmup_epochs", 4, 0, 1000, true, "W: density rho^((e + 1) / (W + 1)) in warm-up epoch e"},
           {"epoch_encodes", 100, 1, 1e9, true, "encodes of a tensor per warm-up epoch"}},
          false,
          [](const NumericParams& p, const EncoderContext& c) {
            return make_momentum_sparsifier({p.at("rho"), p.at("momentum"), p.at("clip_norm"),
                                             int(p.at("warmup_epochs")), int(p.at("epoch_encodes"))},
                                            c.seed);
          },
          [](const NumericParams& p, const EncoderContext&, std::uint64_t n) {  // after the warm-up
            return sparse_bytes(at_rate(p.at("rho"), n));
          }),
      codec(
          "random_k", "k random entries per push, with error feedback",
          {{"ratio", 0.01, 1e-6, 1.0, false, "fraction of entries sent"}}, false,
          [](const NumericParams& p, const EncoderContext& c) { return make_random_k_encoder(p.at("ratio"), c.seed); },
          [](const NumericParams& p, const EncoderContext&, std::uint64_t n) {
            return sparse_bytes(at_rate(p.at("ratio"), n));
          }),
      codec(
          "qsgd", "stochastic quantisation to s levels of the L2 norm, one byte per entry",
          {{"levels", 16, 1, 127, true, "s"}}, false,
          [](const NumericParams& p, const EncoderContext& c) {
            return make_qsgd_encoder(int(p.at("levels")), c.seed);
          },
          [](const NumericParams&, const EncoderContext&, std::uint64_t n) { return 5 + n; }),
      codec(
          "terngrad", "{-1, 0, 1} x max|g| after clipping at 2.5 sigma, two bits per entry", {}, false,
          [](const NumericParams&, const EncoderContext& c) { return make_terngrad_encoder(c.seed); },
          [](const NumericParams&, const EncoderContext&, std::uint64_t n) { return 4 + (n + 3) / 4; }),
      codec(
          "signsgd_ef", "scaled signs with error feedback, one bit per entry", {}, false,
          [](const NumericParams&, const EncoderContext&) { return make_signsgd_ef_encoder(); },
          [](const NumericParams&, const EncoderContext&, std::uint64_t n) { return 4 + (n + 7) / 8; }),
      codec(
          "powersgd", "rank-r power iteration, warm-started, with error feedback", {{"rank", 4, 1, 1024, true, "r"}},
          false,
          [](const NumericParams& p, const EncoderContext& c) {
            return make_powersgd_encoder(int(p.at("rank")), c.seed);
          },
          [](const NumericParams& p, const EncoderContext&, std::uint64_t n) {
            return powersgd_wire_bytes(int(p.at("rank")), n);
          }),
  };
  return r;
}

const CodecInfo* find_codec(const std::string& name) { return find_entry(codec_registry(), name); }

const std::vector<FormatInfo>& format_registry() {
  static const std::vector<FormatInfo> r = {
      {kSparseCodecId, "sparse", validate_sparse, add_sparse},
      {kFp16CodecId, "fp16", validate_fp16, add_fp16},
      {kQsgdCodecId, "qsgd", validate_qsgd, add_qsgd},
      {kTernGradCodecId, "terngrad", validate_terngrad, add_terngrad},
      {kSignCodecId, "signsgd", validate_sign, add_sign},
      {kPowerSgdCodecId, "powersgd", validate_powersgd, add_powersgd},
      {kSegmentCodecId, "segment", validate_segment, add_segment},
      {kSegment4CodecId, "segment4", validate_segment4, add_segment4},
  };
  return r;
}

namespace {
const FormatInfo& format(std::uint8_t id) {
  for (const auto& f : format_registry())
    if (f.id == id) return f;
  throw CodecError("unknown codec id " + std::to_string(int(id)));
}
}  // namespace

void validate_block(const CodedBlock& b) { format(b.codec).validate(b); }

void add_decoded(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  if (into.size() != Eigen::Index(b.n)) throw CodecError("coded block length does not match its tensor");
  format(b.codec).add(b, scale, into);
}

}  // namespace geotrain
