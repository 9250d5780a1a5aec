#include "core/wire.h"

#include <cstring>

namespace geotrain {
namespace {

class Writer {
 public:
  explicit Writer(std::size_t reserve) { out_.reserve(reserve); }
  template <class T>
  void put(T v) {
    const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
    out_.insert(out_.end(), p, p + sizeof(T));
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
    T v;
    std::memcpy(&v, d_ + pos_, sizeof(T));
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

std::vector<std::uint8_t> encode_message(const Message& m) {
  Writer w(m.wire_bytes + 64);
  w.put<std::uint8_t>(std::uint8_t(m.kind));
  w.put<std::uint8_t>(std::uint8_t(m.channel));
  w.put<std::int32_t>(m.priority);
  w.put<std::int32_t>(m.from);
  w.put<std::int32_t>(m.to);
  w.put<std::int64_t>(m.round);
  w.put<std::uint8_t>(m.payload ? 1 : 0);
  if (m.payload) {
    w.put<double>(m.payload->loss_sum);
    w.put<std::int32_t>(m.payload->contributors);
    w.put<std::uint32_t>(std::uint32_t(m.payload->blocks.size()));
    for (const auto& b : m.payload->blocks) {
      w.put<std::uint32_t>(b.key);
      w.put<std::uint32_t>(std::uint32_t(b.values.size()));
      w.bytes(b.values.data(), sizeof(float) * std::size_t(b.values.size()));
    }
  }
  return w.take();
}

Message decode_message(const std::uint8_t* data, std::size_t size) {
  Reader r(data, size);
  Message m;
  const auto kind = r.get<std::uint8_t>();
  if (kind > std::uint8_t(MsgKind::kControl)) throw WireError("unknown message kind");
  m.kind = MsgKind(kind);
  const auto ch = r.get<std::uint8_t>();
  if (ch > std::uint8_t(Channel::kBestEffort)) throw WireError("unknown channel");
  m.channel = Channel(ch);
  m.priority = r.get<std::int32_t>();
  m.from = r.get<std::int32_t>();
  m.to = r.get<std::int32_t>();
  m.round = r.get<std::int64_t>();
  const auto has = r.get<std::uint8_t>();
  if (has > 1) throw WireError("bad payload flag");
  if (has) {
    auto p = std::make_shared<Payload>();
    p->loss_sum = r.get<double>();
    p->contributors = r.get<std::int32_t>();
    const auto blocks = r.get<std::uint32_t>();
    if (blocks > r.left() / 8) throw WireError("block count exceeds message");
    p->blocks.resize(blocks);
    for (auto& b : p->blocks) {
      b.key = r.get<std::uint32_t>();
      const auto n = r.get<std::uint32_t>();
      if (n > r.left() / sizeof(float)) throw WireError("block length exceeds message");
      b.values.resize(n);
      r.copy(b.values.data(), sizeof(float) * n);
    }
    m.payload = std::move(p);
  }
  if (r.left() != 0) throw WireError("trailing bytes after message");
  m.wire_bytes = dense_wire_bytes(m.payload.get());
  return m;
}

}  // namespace geotrain
