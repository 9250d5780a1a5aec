// The codecs a scenario may choose per stream (compression.lan_push, lan_pull,
// wan_push, wan_pull), and every encoding a CodedBlock may carry, by id. The
// scenario loader, `geotrain list` and the schema test read the codec table;
// receivers (the wire decoder, the sums) go through the format table and never
// look at a codec's name. A new codec is its own file plus one line here.
#pragma once
#include <Eigen/Dense>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/base/registry.h"
#include "core/codec/coded_block.h"
#include "core/codec/encoder.h"

namespace geotrain {

// Which link a stream crosses: inside a DC, or across the WAN.
enum class Tier { kLan, kWan };

struct EncoderContext {
  Tier tier = Tier::kWan;
  std::uint64_t seed = 0;         // per sender and stream
  std::uint64_t dense_below = 0;  // the stream's small-tensor size (mpq picks its own format for those)
};

struct CodecInfo {
  ComponentDoc doc;                  // name, one line, parameter help (from params)
  std::vector<NumericParam> params;  // read by the scenario loader
  bool lossless = false;
  bool encodes_small = false;  // gets the tensors below dense_below too (mpq)
  // Keeps every entry and only rounds it (fp16): what Precision::kRounding blocks accept.
  bool rounds_entries = false;
  // An encoder for one sender's stream; null for `none` (dense, no copy).
  std::function<std::unique_ptr<Encoder>(const NumericParams&, const EncoderContext&)> make;
  // The wire-size rule: the bytes encoding an n-entry tensor writes (after
  // any warm-up; the expected count where a threshold is sampled), or nullopt
  // where the tensor travels dense. What a workload profile's stand-ins are
  // charged (core/learners/profile_model.h); a test holds it to the encoder.
  std::function<std::optional<std::uint64_t>(const NumericParams&, const EncoderContext&, std::uint64_t n)> wire_bytes;
};

const std::vector<CodecInfo>& codec_registry();

// A scenario's choice for one stream.
struct CodecChoice {
  std::string kind = "none";
  NumericParams params;  // every parameter, defaults filled in
};
const CodecInfo* find_codec(const std::string& name);

// An encoding on the wire (several codecs may write one: random_k, bsc, dgc
// and `sparse` write the sparse format).
struct FormatInfo {
  std::uint8_t id = 0;  // on the wire; never reused
  const char* name = "";
  void (*validate)(const CodedBlock&) = nullptr;
  void (*add)(const CodedBlock&, float scale, Eigen::Ref<Eigen::VectorXf> into) = nullptr;
};
const std::vector<FormatInfo>& format_registry();

// Throws CodecError unless `b` names a registered format and is well formed for it.
void validate_block(const CodedBlock& b);
// into += scale * decoded(b). REQUIRES: validate_block(b) passed, into.size() == b.n.
void add_decoded(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);

}  // namespace geotrain
