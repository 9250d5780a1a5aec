#include "real/frame.h"

#include <zlib.h>

#include <cstring>

namespace geotrain::real {
namespace {

std::uint32_t crc(const std::uint8_t* p, std::size_t n) {
  uLong c = crc32(0L, Z_NULL, 0);
  while (n > 0) {  // zlib takes uInt lengths
    const uInt chunk = uInt(std::min<std::size_t>(n, 1u << 30));
    c = crc32(c, p, chunk);
    p += chunk;
    n -= chunk;
  }
  return std::uint32_t(c);
}

template <class T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
void store(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

bool known_type(std::uint8_t t) { return t >= 1 && t <= std::uint8_t(FrameType::kFragment); }

}  // namespace

std::vector<std::uint8_t> frame_header(FrameType t, const std::uint8_t* body, std::size_t n) {
  std::vector<std::uint8_t> h(kFrameHeaderBytes);
  store<std::uint32_t>(&h[0], kFrameMagic);
  h[4] = kFrameVersion;
  h[5] = std::uint8_t(t);
  store<std::uint16_t>(&h[6], 0);
  store<std::uint32_t>(&h[8], std::uint32_t(n));
  store<std::uint32_t>(&h[12], crc(body, n));
  return h;
}

std::vector<std::uint8_t> make_frame(FrameType t, const std::vector<std::uint8_t>& body) {
  std::vector<std::uint8_t> f = frame_header(t, body.data(), body.size());
  f.insert(f.end(), body.begin(), body.end());
  return f;
}

void FrameDecoder::feed(const std::uint8_t* data, std::size_t n, const Sink& sink) {
  while (n > 0) {
    if (have_header_ < kFrameHeaderBytes) {
      const std::size_t k = std::min(n, kFrameHeaderBytes - have_header_);
      std::memcpy(header_ + have_header_, data, k);
      have_header_ += k;
      data += k;
      n -= k;
      if (have_header_ < kFrameHeaderBytes) return;
      if (load<std::uint32_t>(header_) != kFrameMagic) throw FrameError("bad frame magic");
      if (header_[4] != kFrameVersion) throw FrameError("unsupported frame version " + std::to_string(header_[4]));
      if (!known_type(header_[5])) throw FrameError("unknown frame type " + std::to_string(header_[5]));
      if (load<std::uint16_t>(header_ + 6) != 0) throw FrameError("reserved header bits set");
      want_ = load<std::uint32_t>(header_ + 8);
      if (want_ > max_body_)
        throw FrameError("frame of " + std::to_string(want_) + " bytes exceeds the limit of " +
                         std::to_string(max_body_));
      type_ = FrameType(header_[5]);
      crc_ = load<std::uint32_t>(header_ + 12);
      body_.clear();
      body_.reserve(want_);
    }
    const std::size_t k = std::min(n, want_ - body_.size());
    body_.insert(body_.end(), data, data + k);
    data += k;
    n -= k;
    if (body_.size() == want_) {
      if (crc(body_.data(), body_.size()) != crc_) throw FrameError("frame checksum mismatch");
      have_header_ = 0;
      sink(type_, std::move(body_));
      body_ = {};
    }
  }
}

std::pair<FrameType, std::vector<std::uint8_t>> parse_datagram(const std::uint8_t* data, std::size_t n,
                                                               std::size_t max_body) {
  FrameDecoder d(max_body);
  std::pair<FrameType, std::vector<std::uint8_t>> out{FrameType::kMessage, {}};
  int frames = 0;
  d.feed(data, n, [&](FrameType t, std::vector<std::uint8_t>&& b) {
    out = {t, std::move(b)};
    ++frames;
  });
  if (frames != 1) throw FrameError("datagram is not exactly one frame");
  return out;
}

}  // namespace geotrain::real
