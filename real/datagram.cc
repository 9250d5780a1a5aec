#include "real/datagram.h"

#include "core/bytes.h"
#include "core/wire.h"
#include "real/frame.h"

namespace geotrain::real {

std::vector<Bytes> make_datagrams(std::int32_t from, std::uint64_t id, const Bytes& enc, const std::string& secret) {
  const std::size_t count = (enc.size() + kDatagramChunk - 1) / kDatagramChunk;
  if (count > 0xFFFF) throw std::invalid_argument("message too large for best-effort datagrams");
  std::vector<Bytes> out;
  for (std::size_t i = 0; i < count; ++i) {
    Bytes body;
    append_raw<std::int32_t>(body, from);
    append_raw<std::uint64_t>(body, id);
    append_raw<std::uint16_t>(body, std::uint16_t(i));
    append_raw<std::uint16_t>(body, std::uint16_t(count));
    const std::size_t lo = i * kDatagramChunk, hi = std::min(enc.size(), lo + kDatagramChunk);
    body.insert(body.end(), enc.begin() + long(lo), enc.begin() + long(hi));
    Bytes d = make_frame(FrameType::kFragment, body);
    const Bytes mac = hmac_sha256(secret, d);
    d.insert(d.end(), mac.begin(), mac.begin() + kDatagramMacBytes);
    out.push_back(std::move(d));
  }
  return out;
}

DatagramAssembler::DatagramAssembler(std::string secret, std::int32_t self, std::size_t max_partial_bytes)
    : secret_(std::move(secret)), self_(self), max_partial_bytes_(max_partial_bytes) {}

void DatagramAssembler::forget(std::map<std::pair<std::int32_t, std::uint64_t>, Partial>::iterator it) {
  partial_bytes_ -= it->second.bytes;
  partial_.erase(it);
}

std::optional<Message> DatagramAssembler::add(const std::uint8_t* data, std::size_t n, Clock::time_point now) {
  // Forget partial messages whose other datagrams were lost.
  for (auto it = partial_.begin(); it != partial_.end();) {
    auto next = std::next(it);
    if (now - it->second.first > kPartialLifetime) forget(it);
    it = next;
  }
  if (n < kDatagramMacBytes + kFrameHeaderBytes) throw FrameError("runt datagram");
  const std::size_t signed_n = n - kDatagramMacBytes;
  const Bytes mac = hmac_sha256(secret_, Bytes(data, data + signed_n));
  if (!equal_ct(mac.data(), data + signed_n, kDatagramMacBytes)) throw FrameError("datagram failed authentication");
  Frame frame = parse_datagram(data, signed_n, kDatagramChunk + kFragmentHeaderBytes);
  const Bytes& body = frame.body;
  if (frame.type != FrameType::kFragment || body.size() <= kFragmentHeaderBytes) throw FrameError("not a fragment");
  const auto from = load_raw<std::int32_t>(body.data());
  const auto id = load_raw<std::uint64_t>(body.data() + 4);
  const auto idx = load_raw<std::uint16_t>(body.data() + 12), count = load_raw<std::uint16_t>(body.data() + 14);
  if (count == 0 || idx >= count) throw FrameError("bad fragment index");
  const std::size_t chunk = body.size() - kFragmentHeaderBytes;
  if (chunk > max_partial_bytes_) throw FrameError("fragment larger than the reassembly budget");
  // Room for this fragment: drop the oldest incomplete messages first.
  while (partial_bytes_ + chunk > max_partial_bytes_ && !partial_.empty()) {
    auto oldest = partial_.begin();
    for (auto it = partial_.begin(); it != partial_.end(); ++it)
      if (it->second.first < oldest->second.first) oldest = it;
    forget(oldest);
  }
  auto [it, fresh] = partial_.try_emplace({from, id});
  Partial& p = it->second;
  if (fresh) {
    p.parts.resize(count);
    p.first = now;
  }
  if (p.parts.size() != count) throw FrameError("fragment count changed");
  if (p.parts[idx].empty()) {
    p.parts[idx].assign(body.begin() + kFragmentHeaderBytes, body.end());
    p.bytes += chunk;
    partial_bytes_ += chunk;
    ++p.have;
  }
  if (p.have < count) return std::nullopt;
  Bytes all;
  all.reserve(p.bytes);
  for (auto& part : p.parts) all.insert(all.end(), part.begin(), part.end());
  forget(it);
  Message m = decode_message(all.data(), all.size());
  if (m.from != from || m.to != self_) throw FrameError("datagram message with forged addressing");
  return m;
}

}  // namespace geotrain::real
