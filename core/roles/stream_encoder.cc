#include "core/roles/stream_encoder.h"

#include <algorithm>
#include <stdexcept>

#include "core/codec/segment.h"
#include "core/payload/wire.h"
#include "core/run/run_records.h"

namespace geotrain {

StreamEncoder::StreamEncoder(const CodecChoice& choice, const EncoderContext& ctx, bool fresh)
    : info_(find_codec(choice.kind)), choice_(choice), ctx_(ctx), fresh_(fresh) {
  if (!info_) throw std::invalid_argument("unknown codec \"" + choice.kind + "\"");
  if (info_->make) enc_ = info_->make(choice.params, ctx);
}

void StreamEncoder::attach(RunRecords& records, const std::string& name) {
  records_ = &records;
  record_id_ = records.add_stream(name);
}

void StreamEncoder::record(TimeNs now) {
  if (records_) return records_->record(record_id_, now, bytes_);
  if (!history_.empty() && history_.back().t == now)
    history_.back() = {now, bytes_};
  else
    history_.push_back({now, bytes_});
}

Sent StreamEncoder::encode(std::shared_ptr<const Payload> p, TimeNs now, std::optional<std::uint64_t> draw) {
  if (!p) return {};
  Sent out = encode_counted(std::move(p), draw);
  record(now);
  return out;
}

// A workload profile's stand-in carries its values exactly (a segment) and is
// charged what the codec's rule says the real tensor's encoding costs.
std::optional<CodedBlock> StreamEncoder::encode_stand_in(const ParamBlock& b) const {
  if (!info_->encodes_small && b.stands_for < ctx_.dense_below) return std::nullopt;
  const std::optional<std::uint64_t> bytes = info_->wire_bytes(choice_.params, ctx_, b.stands_for);
  if (!bytes) return std::nullopt;
  const auto n = std::uint32_t(b.values.size());
  CodedBlock c = encode_segment(b.key, n, 0, b.values.data(), n);
  c.stands_for = b.stands_for;
  c.stands_for_bytes = *bytes;
  return c;
}

Sent StreamEncoder::encode_counted(std::shared_ptr<const Payload> p, std::optional<std::uint64_t> draw) {
  const std::uint64_t dense = wire_size(p.get());
  ++bytes_.payloads;
  bytes_.dense_bytes += dense;
  if (!enc_) {
    bytes_.sent_bytes += dense;
    return {std::move(p), dense};
  }
  if (fresh_) {
    // A running count here would hand out draws in the order requests arrive, which in real
    // mode is the network's: every fresh payload says whose draw it is.
    if (!draw) throw std::logic_error("a " + choice_.kind + " pull payload encoded without its draw");
    EncoderContext c = ctx_;
    c.seed = ctx_.seed ^ (*draw * 0xD1B54A32D192ED03ull + 0x8CB92BA72F3D8DD7ull);
    enc_ = info_->make(choice_.params, c);
  }
  auto out = std::make_shared<Payload>();
  out->loss_sum = p->loss_sum;
  out->from_zero = p->from_zero;
  out->contributors = p->contributors;
  out->coded = p->coded;
  for (const auto& b : p->blocks) {
    std::optional<CodedBlock> c;
    if (b.stands_for)
      c = encode_stand_in(b);
    else if (info_->encodes_small || std::uint64_t(b.values.size()) >= ctx_.dense_below)
      c = enc_->encode(b.key, b.values);
    if (c)
      out->coded.push_back(std::move(*c));
    else
      out->blocks.push_back(b);
  }
  sort_by_key(out->coded);
  const std::uint64_t sent = wire_size(out.get());
  bytes_.sent_bytes += sent;
  return {std::move(out), sent};
}

}  // namespace geotrain
