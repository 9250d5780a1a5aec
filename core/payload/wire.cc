#include "core/payload/wire.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/base/bytes.h"
#include "core/codec/codec_registry.h"
#include "core/codec/segment.h"
#include "core/payload/block_pool.h"

namespace geotrain {
namespace {

class Writer {
 public:
  explicit Writer(std::size_t reserve) { out_.reserve(reserve); }
  template <class T>
  void put(T v) {
    append_raw(out_, v);
  }
  void bytes(const void* p, std::size_t n) {
    const auto* b = static_cast<const std::uint8_t*>(p);
    out_.insert(out_.end(), b, b + n);
  }
  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  std::vector<std::uint8_t> out_;
};

class Reader {
 public:
  Reader(const std::uint8_t* d, std::size_t n) : d_(d), n_(n) {}
  template <class T>
  T get() {
    need(sizeof(T));
    const T v = load_raw<T>(d_ + pos_);
    pos_ += sizeof(T);
    return v;
  }
  void copy(void* dst, std::size_t n) {
    need(n);
    std::memcpy(dst, d_ + pos_, n);
    pos_ += n;
  }
  std::size_t left() const { return n_ - pos_; }

 private:
  void need(std::size_t k) const {
    if (k > n_ - pos_) throw WireError("message truncated");
  }
  const std::uint8_t* d_;
  std::size_t n_, pos_ = 0;
};

}  // namespace

std::size_t ByteSpans::size() const {
  std::size_t n = 0;
  for (const auto& s : spans) n += s.second;
  return n;
}

ByteSpans ByteSpans::of(std::vector<std::uint8_t> bytes) {
  ByteSpans b;
  b.owned.push_back(std::move(bytes));
  b.spans.emplace_back(b.owned.back().data(), b.owned.back().size());
  return b;
}

namespace {
constexpr std::size_t kFixedBytes = kMessageHeaderBytes;
static_assert(kFixedBytes <= 64, "MessageAssembler::small_ holds the message header");

// True when none of the n floats at p (any alignment) is an infinity or a NaN.
// A float's exponent field is all ones exactly when adding one to it carries
// into the sign bit; that test is three integer operations on four lanes at a
// time (plain GCC vectors, SSE2 on every x86-64): memory speed, where a
// per-value isfinite ran at a third of a copy's speed.
bool all_finite(const std::uint8_t* p, std::size_t n) {
  typedef std::uint32_t Lanes __attribute__((vector_size(16)));
  constexpr std::uint32_t kExp = 0x7f800000u, kCarry = 0x00800000u, kSign = 0x80000000u;
  constexpr std::size_t kPer = sizeof(Lanes) / sizeof(float), kUnroll = 4;
  const Lanes exp = {kExp, kExp, kExp, kExp}, carry = {kCarry, kCarry, kCarry, kCarry};
  Lanes acc[kUnroll] = {};
  std::size_t i = 0;
  for (; i + kPer * kUnroll <= n; i += kPer * kUnroll)
    for (std::size_t u = 0; u < kUnroll; ++u) {
      Lanes w;
      std::memcpy(&w, p + sizeof(float) * (i + kPer * u), sizeof w);
      acc[u] |= (w & exp) + carry;
    }
  std::uint32_t any = 0;
  for (std::size_t u = 0; u < kUnroll; ++u)
    for (std::size_t k = 0; k < kPer; ++k) any |= acc[u][k];
  for (; i < n; ++i) {
    std::uint32_t w;
    std::memcpy(&w, p + sizeof(float) * i, sizeof w);
    any |= (w & kExp) + kCarry;
  }
  return (any & kSign) == 0;
}
}  // namespace

std::uint64_t dense_wire_bytes(const ParamSet& blocks) {
  std::uint64_t n = kMessageHeaderBytes + kPayloadHeaderBytes;
  for (const auto& b : blocks) n += kBlockHeaderBytes + sizeof(float) * wire_elements(b);
  return n;
}

std::uint64_t wire_size(const Payload* p) {
  if (!p) return kMessageHeaderBytes;
  std::uint64_t n = dense_wire_bytes(p->blocks);
  for (const auto& c : p->coded) n += kCodedHeaderBytes + wire_bytes(c);
  return n;
}

ByteSpans encode_message_spans(const Message& m) {
  ByteSpans out;
  out.payload = m.payload;
  Writer w(64);
  auto flush = [&] {  // close the current small piece
    out.owned.push_back(w.take());
    out.spans.emplace_back(out.owned.back().data(), out.owned.back().size());
    w = Writer(64);
  };
  w.put<std::uint8_t>(std::uint8_t(m.kind));
  w.put<std::uint8_t>(std::uint8_t(m.channel));
  w.put<std::int32_t>(m.priority);
  w.put<std::int32_t>(m.from);
  w.put<std::int32_t>(m.to);
  w.put<std::int32_t>(m.origin);
  w.put<std::int32_t>(m.dest);
  w.put<std::int64_t>(m.round);
  w.put<std::uint32_t>(m.seq);
  w.put<std::uint16_t>(m.part);
  w.put<std::uint16_t>(m.parts);
  w.put<double>(m.step_s);
  w.put<double>(m.transfer_s);
  w.put<double>(m.sent_s);
  w.put<std::uint8_t>(m.payload ? 1 : 0);
  if (m.payload) {
    w.put<double>(m.payload->loss_sum);
    w.put<std::int32_t>(m.payload->contributors);
    w.put<std::uint8_t>(m.payload->from_zero ? 1 : 0);
    w.put<std::uint32_t>(std::uint32_t(m.payload->blocks.size()));
    w.put<std::uint32_t>(std::uint32_t(m.payload->coded.size()));
    for (const auto& b : m.payload->blocks) {
      w.put<std::uint32_t>(b.key);
      w.put<std::uint32_t>(std::uint32_t(b.values.size()));
      flush();
      out.spans.emplace_back(reinterpret_cast<const std::uint8_t*>(b.values.data()),
                             sizeof(float) * std::size_t(b.values.size()));
    }
    for (const auto& c : m.payload->coded) {
      w.put<std::uint32_t>(c.key);
      w.put<std::uint32_t>(c.n);
      w.put<std::uint8_t>(c.codec);
      w.put<std::uint32_t>(std::uint32_t(c.bytes.size()));
      flush();
      out.spans.emplace_back(c.bytes.data(), c.bytes.size());
    }
  }
  flush();
  return out;
}

std::vector<std::uint8_t> encode_message(const Message& m) {
  const ByteSpans s = encode_message_spans(m);
  std::vector<std::uint8_t> out;
  out.reserve(s.size());
  for (const auto& [p, n] : s.spans) out.insert(out.end(), p, p + n);
  return out;
}

Message decode_message(const std::uint8_t* data, std::size_t size) {
  MessageAssembler a(size);
  while (!a.done()) {
    auto [dst, room] = a.prepare();
    const std::size_t k = std::min(room, size);
    if (k == 0) throw WireError("message truncated");
    std::memcpy(dst, data, k);
    data += k;
    size -= k;
    a.commit(k);
  }
  if (size != 0) throw WireError("trailing bytes after message");
  return a.take();
}

MessageAssembler::MessageAssembler(std::size_t total) : total_(total), small_want_(kFixedBytes) {}

std::pair<std::uint8_t*, std::size_t> MessageAssembler::prepare() {
  if (state_ == State::kDone) throw WireError("bytes after the end of the message");
  if (state_ == State::kBlockData || state_ == State::kCodedData) return {data_, data_left_};
  return {small_ + small_have_, small_want_ - small_have_};
}

void MessageAssembler::commit(std::size_t n) {
  consumed_ += n;
  if (consumed_ > total_) throw WireError("message longer than its frame");
  if (state_ == State::kBlockData || state_ == State::kCodedData) {
    data_ += n;
    data_left_ -= n;
    if (state_ == State::kBlockData) check_arrived_values();
    if (data_left_ == 0) field_complete();
    return;
  }
  small_have_ += n;
  if (small_have_ == small_want_) field_complete();
}

void MessageAssembler::field_complete() {
  Reader r(small_, small_have_);
  const std::size_t left = total_ - consumed_;
  switch (state_) {
    case State::kFixed: {
      const auto kind = r.get<std::uint8_t>();
      if (kind > std::uint8_t(kLastMsgKind)) throw WireError("unknown message kind");
      msg_.kind = MsgKind(kind);
      const auto ch = r.get<std::uint8_t>();
      if (ch > std::uint8_t(Channel::kBestEffort)) throw WireError("unknown channel");
      msg_.channel = Channel(ch);
      msg_.priority = r.get<std::int32_t>();
      msg_.from = r.get<std::int32_t>();
      msg_.to = r.get<std::int32_t>();
      msg_.origin = r.get<std::int32_t>();
      msg_.dest = r.get<std::int32_t>();
      if (msg_.origin < -1 || msg_.dest < -1) throw WireError("bad origin or destination");
      msg_.round = r.get<std::int64_t>();
      msg_.seq = r.get<std::uint32_t>();
      msg_.part = r.get<std::uint16_t>();
      msg_.parts = r.get<std::uint16_t>();
      if (msg_.parts == 0 ? msg_.part != 0 : msg_.part >= msg_.parts) throw WireError("bad part index");
      msg_.step_s = r.get<double>();
      msg_.transfer_s = r.get<double>();
      msg_.sent_s = r.get<double>();
      if (!std::isfinite(msg_.step_s) || !std::isfinite(msg_.transfer_s) || !std::isfinite(msg_.sent_s))
        throw WireError("non-finite timing");
      const auto has = r.get<std::uint8_t>();
      if (has > 1) throw WireError("bad payload flag");
      if (has) {
        state_ = State::kPayloadHeader;
        small_want_ = kPayloadHeaderBytes;
      } else {
        state_ = State::kDone;
      }
      break;
    }
    case State::kPayloadHeader: {
      payload_ = make_pooled_payload();  // large tensors reuse the storage of dropped ones
      payload_->loss_sum = r.get<double>();
      payload_->contributors = r.get<std::int32_t>();
      const auto flags = r.get<std::uint8_t>();
      if (flags > 1) throw WireError("unknown payload flags");
      payload_->from_zero = flags & 1;
      blocks_left_ = r.get<std::uint32_t>();
      coded_left_ = r.get<std::uint32_t>();
      if (blocks_left_ > left / kBlockHeaderBytes) throw WireError("block count exceeds message");
      if (coded_left_ > (left - blocks_left_ * kBlockHeaderBytes) / kCodedHeaderBytes)
        throw WireError("coded block count exceeds message");
      payload_->blocks.reserve(blocks_left_);
      payload_->coded.reserve(coded_left_);
      next_block();
      break;
    }
    case State::kBlockHeader: {
      ParamBlock b;
      b.key = r.get<std::uint32_t>();
      if (std::int64_t(b.key) <= last_key_) throw WireError("block keys out of order");
      last_key_ = b.key;
      const auto n = r.get<std::uint32_t>();
      if (n > left / sizeof(float)) throw WireError("block length exceeds message");
      b.values = BlockPool::process().take(n);  // contents unspecified: the network fills it
      payload_->blocks.push_back(std::move(b));
      data_ = reinterpret_cast<std::uint8_t*>(payload_->blocks.back().values.data());
      data_left_ = sizeof(float) * n;
      block_checked_ = 0;
      --blocks_left_;
      if (n)
        state_ = State::kBlockData;
      else
        next_block();
      break;
    }
    case State::kCodedHeader: {
      CodedBlock c;
      c.key = r.get<std::uint32_t>();
      c.n = r.get<std::uint32_t>();
      if (c.n > kMaxCodedTensorElements)
        throw WireError("coded block's tensor longer than " + std::to_string(kMaxCodedTensorElements) + " entries");
      c.codec = r.get<std::uint8_t>();
      // Keys ascend; only ranges of one tensor (a push in parts) may share one.
      const bool same_tensor = std::int64_t(c.key) == last_key_ && !payload_->coded.empty() &&
                               is_segment_format(c.codec) && is_segment_format(payload_->coded.back().codec) &&
                               payload_->coded.back().n == c.n;
      if (std::int64_t(c.key) <= last_key_ && !same_tensor) throw WireError("coded block keys out of order");
      last_key_ = c.key;
      for (const auto& b : payload_->blocks)
        if (b.key == c.key) throw WireError("a key is both dense and coded");
      const auto len = r.get<std::uint32_t>();
      if (len > left) throw WireError("coded block length exceeds message");
      c.bytes.resize(len);
      payload_->coded.push_back(std::move(c));
      data_ = payload_->coded.back().bytes.data();
      data_left_ = len;
      --coded_left_;
      if (len) {
        state_ = State::kCodedData;
      } else {
        check_coded();
        next_block();
      }
      break;
    }
    case State::kBlockData:  // its values were checked as they arrived
      next_block();
      break;
    case State::kCodedData:
      check_coded();
      next_block();
      break;
    case State::kDone: break;
  }
  small_have_ = 0;
  if (state_ == State::kDone && consumed_ != total_) throw WireError("trailing bytes after message");
}

void MessageAssembler::check_arrived_values() {
  // A non-finite value would poison every model it is added to: the message is refused instead.
  const ParamBlock& b = payload_->blocks.back();
  const std::size_t arrived = sizeof(float) * std::size_t(b.values.size()) - data_left_;
  const std::size_t upto = arrived / sizeof(float) * sizeof(float);  // whole floats only
  const auto* base = reinterpret_cast<const std::uint8_t*>(b.values.data());
  if (!all_finite(base + block_checked_, (upto - block_checked_) / sizeof(float)))
    throw WireError("non-finite value in block " + std::to_string(b.key));
  block_checked_ = upto;
}

void MessageAssembler::next_block() {
  if (blocks_left_) {
    state_ = State::kBlockHeader;
    small_want_ = kBlockHeaderBytes;
  } else if (coded_left_) {
    if (state_ != State::kCodedHeader && state_ != State::kCodedData) last_key_ = -1;  // the coded list starts
    state_ = State::kCodedHeader;
    small_want_ = kCodedHeaderBytes;
  } else {
    state_ = State::kDone;
  }
}

void MessageAssembler::check_coded() {
  try {
    validate_block(payload_->coded.back());
  } catch (const CodecError& e) {
    throw WireError(e.what());
  }
}

Message MessageAssembler::take() {
  if (!done()) throw WireError("message incomplete");
  msg_.payload = std::move(payload_);
  msg_.wire_bytes = wire_size(msg_.payload.get());
  return std::move(msg_);
}

}  // namespace geotrain
