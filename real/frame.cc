#include "real/frame.h"

#include <algorithm>
#include <cstring>

#include "core/base/bytes.h"
#include "real/checksum.h"

namespace geotrain::real {
namespace {

bool known_type(std::uint8_t t) { return t >= 1 && t <= std::uint8_t(FrameType::kRefused); }

}  // namespace

std::vector<std::uint8_t> frame_header(FrameType t, std::size_t n) {
  std::vector<std::uint8_t> h(kFrameHeaderBytes);
  store_raw<std::uint32_t>(&h[0], kFrameMagic);
  h[4] = kFrameVersion;
  h[5] = std::uint8_t(t);
  store_raw<std::uint16_t>(&h[6], 0);
  store_raw<std::uint32_t>(&h[8], std::uint32_t(n));
  return h;
}

std::vector<std::uint8_t> frame_trailer(std::uint32_t crc) {
  std::vector<std::uint8_t> t(kFrameTrailerBytes);
  store_raw<std::uint32_t>(&t[0], crc);
  return t;
}

std::vector<std::uint8_t> make_frame(FrameType t, const std::vector<std::uint8_t>& body) {
  const std::vector<std::uint8_t> h = frame_header(t, body.size());
  const std::vector<std::uint8_t> tr = frame_trailer(crc32c(0, body.data(), body.size()));
  // Copied into a buffer of its final size (GCC 12 warns falsely about vector::insert here when inlined).
  std::vector<std::uint8_t> f(h.size() + body.size() + tr.size());
  std::copy(h.begin(), h.end(), f.begin());
  std::copy(body.begin(), body.end(), f.begin() + std::ptrdiff_t(h.size()));
  std::copy(tr.begin(), tr.end(), f.end() - std::ptrdiff_t(tr.size()));
  return f;
}

FrameWriter::FrameWriter(FrameType t, std::shared_ptr<const ByteSpans> body, std::size_t piece, bool checksum)
    : header_(frame_header(t, body->size())),
      body_(std::move(body)),
      piece_(std::max<std::size_t>(piece, 1)),
      checksum_(checksum) {}

const FrameWriter::Spans& FrameWriter::next() {
  out_.clear();
  if (finished_) return out_;
  std::size_t room = piece_;
  if (!started_) {
    out_.emplace_back(header_.data(), header_.size());
    started_ = true;
  }
  const auto& spans = body_->spans;
  while (room > 0 && span_ < spans.size()) {
    const auto& [p, n] = spans[span_];
    const std::size_t k = std::min(room, n - offset_);
    if (k > 0) {
      if (checksum_) crc_ = crc32c(crc_, p + offset_, k);  // now, so the write that follows reads them from cache
      out_.emplace_back(p + offset_, k);
      room -= k;
      offset_ += k;
    }
    if (offset_ == n) {
      ++span_;
      offset_ = 0;
    }
  }
  if (span_ == spans.size()) {
    trailer_ = frame_trailer(crc_);
    out_.emplace_back(trailer_.data(), trailer_.size());
    finished_ = true;
  }
  return out_;
}

const char* frame_type_name(FrameType t) {
  switch (t) {
    case FrameType::kMessage: return "message";
    case FrameType::kChallenge: return "challenge";
    case FrameType::kResponse: return "auth response";
    case FrameType::kAccept: return "accept";
    case FrameType::kReady: return "ready";
    case FrameType::kGo: return "go";
    case FrameType::kShutdown: return "shutdown";
    case FrameType::kHeartbeat: return "heartbeat";
    case FrameType::kFragment: return "fragment";
    case FrameType::kRefused: return "refused";
  }
  return "unknown";
}

OversizeFrame::OversizeFrame(FrameType t, std::uint64_t n, std::uint64_t max)
    : FrameError(std::string(frame_type_name(t)) + " frame of " + std::to_string(n) + " bytes exceeds the limit of " +
                 std::to_string(max)),
      type(t),
      size(n),
      limit(max) {}

void FrameDecoder::header_complete() {
  if (load_raw<std::uint32_t>(header_) != kFrameMagic) throw FrameError("bad frame magic");
  if (header_[4] != kFrameVersion) throw FrameError("unsupported frame version " + std::to_string(header_[4]));
  if (!known_type(header_[5])) throw FrameError("unknown frame type " + std::to_string(header_[5]));
  if (load_raw<std::uint16_t>(header_ + 6) != 0) throw FrameError("reserved header bits set");
  want_ = load_raw<std::uint32_t>(header_ + 8);
  type_ = FrameType(header_[5]);
  if (want_ > max_body_) throw OversizeFrame(type_, want_, max_body_);
  running_crc_ = 0;
  got_ = 0;
  body_.clear();
  if (type_ == FrameType::kMessage) assembler_ = std::make_unique<MessageAssembler>(want_);
}

std::pair<std::uint8_t*, std::size_t> FrameDecoder::prepare() {
  if (have_header_ < kFrameHeaderBytes) return {header_ + have_header_, kFrameHeaderBytes - have_header_};
  if (got_ == want_) return {trailer_ + have_trailer_, kFrameTrailerBytes - have_trailer_};
  if (assembler_) {
    if (got_ == want_) throw FrameError("message frame ended before the message did");
    try {
      auto [p, room] = assembler_->prepare();
      return {p, std::min(room, want_ - got_)};
    } catch (const WireError& e) {
      throw FrameError(std::string("malformed message: ") + e.what());
    }
  }
  // Grow the body as it arrives, never to the announced size up front.
  if (body_.size() == got_) body_.resize(got_ + std::min(kBodyGrowthBytes, want_ - got_));
  return {body_.data() + got_, body_.size() - got_};
}

void FrameDecoder::commit(std::size_t n, const Sink& sink) {
  if (have_header_ < kFrameHeaderBytes) {
    have_header_ += n;
    if (have_header_ == kFrameHeaderBytes) header_complete();
  } else if (got_ < want_) {
    const std::uint8_t* at = assembler_ ? assembler_->prepare().first : body_.data() + got_;
    if (verify_) running_crc_ = crc32c(running_crc_, at, n);
    got_ += n;
    if (assembler_) {
      try {
        assembler_->commit(n);
      } catch (const WireError& e) {
        throw FrameError(std::string("malformed message: ") + e.what());
      }
    }
  } else {
    have_trailer_ += n;
  }
  if (have_header_ == kFrameHeaderBytes && got_ == want_ && have_trailer_ == kFrameTrailerBytes) frame_complete(sink);
}

void FrameDecoder::frame_complete(const Sink& sink) {
  if (verify_ && running_crc_ != load_raw<std::uint32_t>(trailer_)) throw FrameError("frame checksum mismatch");
  Frame f;
  f.type = type_;
  if (assembler_) {
    if (!assembler_->done()) throw FrameError("message frame ended before the message did");
    f.message = assembler_->take();
    assembler_.reset();
  } else {
    f.body = std::move(body_);
    body_ = {};
  }
  have_header_ = have_trailer_ = 0;
  got_ = want_ = 0;
  sink(std::move(f));
}

void FrameDecoder::feed(const std::uint8_t* data, std::size_t n, const Sink& sink) {
  while (n > 0) {
    auto [dst, room] = prepare();
    const std::size_t k = std::min(n, room);
    std::memcpy(dst, data, k);
    data += k;
    n -= k;
    commit(k, sink);
  }
}

Frame parse_datagram(const std::uint8_t* data, std::size_t n, std::size_t max_body) {
  FrameDecoder d(max_body);
  Frame out;
  int frames = 0;
  d.feed(data, n, [&](Frame&& f) {
    out = std::move(f);
    ++frames;
  });
  if (frames != 1 || d.mid_frame()) throw FrameError("datagram is not exactly one frame");
  return out;
}

}  // namespace geotrain::real
