#include "real/datagram.h"

#include "core/base/bytes.h"
#include "core/payload/wire.h"
#include "real/frame.h"

namespace geotrain::real {

std::vector<Bytes> make_datagrams(std::int32_t from, std::uint64_t id, const Bytes& enc, const std::string& secret) {
  const std::uint16_t count = fragment_count(enc.size(), kDatagramChunk);
  std::vector<Bytes> out;
  for (std::uint16_t i = 0; i < count; ++i) {
    Bytes body;
    append_fragment_header(body, {from, id, i, count});
    const std::size_t lo = std::size_t(i) * kDatagramChunk, hi = std::min(enc.size(), lo + kDatagramChunk);
    body.insert(body.end(), enc.begin() + long(lo), enc.begin() + long(hi));
    Bytes d = make_frame(FrameType::kFragment, body);
    const Bytes mac = hmac_sha256(secret, d);
    d.insert(d.end(), mac.begin(), mac.begin() + kDatagramMacBytes);
    out.push_back(std::move(d));
  }
  return out;
}

DatagramAssembler::DatagramAssembler(std::string secret, std::int32_t self, std::size_t max_partial_bytes)
    : secret_(std::move(secret)), self_(self), reassembler_(max_partial_bytes) {}

std::optional<Message> DatagramAssembler::add(const std::uint8_t* data, std::size_t n, Clock::time_point now) {
  if (n < kDatagramMacBytes + kFrameHeaderBytes) throw FrameError("runt datagram");
  const std::size_t signed_n = n - kDatagramMacBytes;
  const Bytes mac = hmac_sha256(secret_, Bytes(data, data + signed_n));
  if (!equal_ct(mac.data(), data + signed_n, kDatagramMacBytes)) throw FrameError("datagram failed authentication");
  Frame frame = parse_datagram(data, signed_n, kDatagramChunk + kFragmentHeaderBytes);
  const Bytes& body = frame.body;
  if (frame.type != FrameType::kFragment || body.size() <= kFragmentHeaderBytes) throw FrameError("not a fragment");
  const FragmentHeader h = read_fragment_header(body.data(), body.size());
  const TimeNs t = std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count();
  std::optional<std::vector<FragmentBytes>> parts = reassembler_.add(
      h, body.size() - kFragmentHeaderBytes, Bytes(body.begin() + kFragmentHeaderBytes, body.end()), t);
  if (!parts) return std::nullopt;
  Bytes all;
  for (auto& part : *parts) all.insert(all.end(), part.begin(), part.end());
  Message m = decode_message(all.data(), all.size());
  if (m.from != h.from || m.to != self_) throw FrameError("datagram message with forged addressing");
  if (!first_use(h.from, h.msg)) {
    ++replays_;
    throw FrameError("replayed datagram message (number " + std::to_string(h.msg) + " from node " +
                     std::to_string(h.from) + " was used before)");
  }
  return m;
}

bool DatagramAssembler::first_use(std::int32_t from, std::uint64_t msg) {
  std::set<std::uint64_t>& seen = recent_[from];
  if (seen.count(msg) || (seen.size() >= kReplayWindow && msg < *seen.begin())) return false;
  seen.insert(msg);
  if (seen.size() > kReplayWindow) seen.erase(seen.begin());
  return true;
}

}  // namespace geotrain::real
