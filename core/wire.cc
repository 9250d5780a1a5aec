#include "core/wire.h"

#include <cmath>
#include <cstring>

#include "core/block_pool.h"
#include "core/bytes.h"

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
  w.put<std::int64_t>(m.round);
  w.put<double>(m.step_s);
  w.put<double>(m.transfer_s);
  w.put<std::uint8_t>(m.payload ? 1 : 0);
  if (m.payload) {
    w.put<double>(m.payload->loss_sum);
    w.put<std::int32_t>(m.payload->contributors);
    w.put<std::uint32_t>(std::uint32_t(m.payload->blocks.size()));
    for (const auto& b : m.payload->blocks) {
      w.put<std::uint32_t>(b.key);
      w.put<std::uint32_t>(std::uint32_t(b.values.size()));
      flush();
      out.spans.emplace_back(reinterpret_cast<const std::uint8_t*>(b.values.data()),
                             sizeof(float) * std::size_t(b.values.size()));
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

namespace {
constexpr std::size_t kFixedBytes = 1 + 1 + 4 + 4 + 4 + 8 + 8 + 8 + 1;
constexpr std::size_t kPayloadHeaderBytes = 8 + 4 + 4;
static_assert(kFixedBytes <= 48, "MessageAssembler::small_ holds the message header");
}  // namespace

MessageAssembler::MessageAssembler(std::size_t total) : total_(total), small_want_(kFixedBytes) {}

std::pair<std::uint8_t*, std::size_t> MessageAssembler::prepare() {
  if (state_ == State::kDone) throw WireError("bytes after the end of the message");
  if (state_ == State::kBlockData) return {data_, data_left_};
  return {small_ + small_have_, small_want_ - small_have_};
}

void MessageAssembler::commit(std::size_t n) {
  consumed_ += n;
  if (consumed_ > total_) throw WireError("message longer than its frame");
  if (state_ == State::kBlockData) {
    data_ += n;
    data_left_ -= n;
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
      msg_.round = r.get<std::int64_t>();
      msg_.step_s = r.get<double>();
      msg_.transfer_s = r.get<double>();
      if (!std::isfinite(msg_.step_s) || !std::isfinite(msg_.transfer_s)) throw WireError("non-finite timing");
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
      blocks_left_ = r.get<std::uint32_t>();
      if (blocks_left_ > left / kBlockHeaderBytes) throw WireError("block count exceeds message");
      payload_->blocks.reserve(blocks_left_);
      state_ = blocks_left_ ? State::kBlockHeader : State::kDone;
      small_want_ = kBlockHeaderBytes;
      break;
    }
    case State::kBlockHeader: {
      ParamBlock b;
      b.key = r.get<std::uint32_t>();
      const auto n = r.get<std::uint32_t>();
      if (n > left / sizeof(float)) throw WireError("block length exceeds message");
      b.values = BlockPool::process().take(n);  // contents unspecified: the network fills it
      payload_->blocks.push_back(std::move(b));
      data_ = reinterpret_cast<std::uint8_t*>(payload_->blocks.back().values.data());
      data_left_ = sizeof(float) * n;
      --blocks_left_;
      state_ = n ? State::kBlockData : (blocks_left_ ? State::kBlockHeader : State::kDone);
      break;
    }
    case State::kBlockData:
      state_ = blocks_left_ ? State::kBlockHeader : State::kDone;
      small_want_ = kBlockHeaderBytes;
      break;
    case State::kDone: break;
  }
  small_have_ = 0;
  if (state_ == State::kDone && consumed_ != total_) throw WireError("trailing bytes after message");
}

Message MessageAssembler::take() {
  if (!done()) throw WireError("message incomplete");
  msg_.payload = std::move(payload_);
  msg_.wire_bytes = dense_wire_bytes(msg_.payload.get());
  return std::move(msg_);
}

}  // namespace geotrain
