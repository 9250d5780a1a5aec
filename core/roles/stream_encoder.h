// One sender's stream (its pushes, or its pull responses) through the codec
// the scenario chose for it: tensors of at least dense_below entries are
// encoded (every tensor, for a codec that says it encodes small ones, mpq),
// the rest travel dense. Counts what the payloads would cost dense and what
// they cost as sent, for the summary's compression ratios.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/time.h"
#include "core/codec/codec_registry.h"
#include "core/codec/stream_bytes.h"
#include "core/payload/message.h"

namespace geotrain {

class RunRecords;

// The stream's running totals after its payloads encoded at time `t` (one
// sample per distinct time), so a timeline row can read what had been sent by
// its evaluation.
struct StreamSample {
  TimeNs t = 0;
  StreamBytes total;
};

class StreamEncoder {
 public:
  StreamEncoder() = default;  // `none`
  // `fresh`: a new encoder for every payload, no state carried (a pull of
  // changes, whose error feedback is the server's copy of the child's model).
  StreamEncoder(const CodecChoice& choice, const EncoderContext& ctx, bool fresh = false);
  bool active() const { return info_ && info_->make; }
  // `p` as it goes on the wire at time `now` (the same object when nothing is
  // encoded: a `none` stream only counts). `draw`, required by an active fresh
  // stream (std::logic_error without it): which random numbers this payload's
  // encoder draws (a pull's child and its count of pulls), so that real mode,
  // where children's requests arrive in any order, encodes each child's
  // answers as the simulation does.
  // Returned with its wire size, counted here once (make_message takes it as is).
  Sent encode(std::shared_ptr<const Payload> p, TimeNs now, std::optional<std::uint64_t> draw = std::nullopt);
  const StreamBytes& bytes() const { return bytes_; }
  const std::vector<StreamSample>& history() const { return history_; }
  // Records its totals there after each encode instead of keeping a history.
  void attach(RunRecords& records, const std::string& name);
  const std::string& kind() const { return choice_.kind; }

 private:
  Sent encode_counted(std::shared_ptr<const Payload> p, std::optional<std::uint64_t> draw);
  std::optional<CodedBlock> encode_stand_in(const ParamBlock& b) const;
  void record(TimeNs now);
  const CodecInfo* info_ = nullptr;
  CodecChoice choice_;
  EncoderContext ctx_;
  bool fresh_ = false;
  std::unique_ptr<Encoder> enc_;
  StreamBytes bytes_;
  std::vector<StreamSample> history_;
  RunRecords* records_ = nullptr;
  int record_id_ = -1;
};

}  // namespace geotrain
