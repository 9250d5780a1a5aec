// Framing for real-mode TCP streams and UDP datagrams.
// Header (12 bytes, little-endian): u32 magic "GTRN", u8 version, u8 type,
// u16 reserved (0), u32 body length; then the body; then a trailer: u32
// CRC-32C of the body (real/checksum.h). The checksum comes last so that a
// sender computes it piece by piece as it writes (FrameWriter), on bytes in
// cache, instead of reading a large body once more before its first byte goes.
// On a TLS link the record layer's AEAD tag already authenticates every byte:
// there writers leave the trailer 0 and decoders do not compute or check it.
// A decoder enforces a hard body-size limit and rejects a bad magic, version,
// type, length or checksum with FrameError: the caller closes that connection.
// It commits memory only as bytes arrive: a header that announces a large body
// costs nothing until the body's bytes are actually received, so a peer cannot
// make a node allocate what it never sends.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/payload/wire.h"

namespace geotrain::real {

enum class FrameType : std::uint8_t {
  kMessage = 1,    // an encoded core Message (core/payload/wire.h)
  kChallenge = 2,  // auth: server nonce
  kResponse = 3,   // auth: client id, client nonce, HMAC over the server nonce
  kAccept = 4,     // auth: HMAC over the client nonce (server proves the secret too)
  kReady = 5,      // start barrier: a node is listening and loaded
  kGo = 6,         // start barrier: everyone is ready, start now
  kShutdown = 7,   // the job is over
  kHeartbeat = 8,  // liveness
  kFragment = 9,   // UDP: one datagram of a best-effort message
  kRefused = 10,   // auth: the server will not admit this client, and says why (then hangs up)
};

constexpr std::uint32_t kFrameMagic = 0x4E525447;  // "GTRN"
constexpr std::uint8_t kFrameVersion = 2;          // 1 carried the checksum in the header
constexpr std::size_t kFrameHeaderBytes = 12;
constexpr std::size_t kFrameTrailerBytes = 4;
constexpr std::size_t kDefaultMaxFrameBytes = std::size_t(1) << 30;  // 1 GiB
// Before a peer has proved the secret it may send only the auth response
// (4 + 16 + 32 bytes): any larger frame is refused at its header.
constexpr std::size_t kPreAuthMaxFrameBytes = 256;
// Non-message bodies grow by at most this much per read.
constexpr std::size_t kBodyGrowthBytes = 64 * 1024;

class FrameError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
// A well-formed header announcing a body above the decoder's limit.
class OversizeFrame : public FrameError {
 public:
  OversizeFrame(FrameType type, std::uint64_t size, std::uint64_t limit);
  FrameType type;
  std::uint64_t size, limit;
};
const char* frame_type_name(FrameType t);

// Header for a body of `n` bytes, and the trailer for a body whose CRC-32C is `crc`.
std::vector<std::uint8_t> frame_header(FrameType t, std::size_t n);
std::vector<std::uint8_t> frame_trailer(std::uint32_t crc);
// Header + body + trailer in one buffer.
std::vector<std::uint8_t> make_frame(FrameType t, const std::vector<std::uint8_t>& body);

// Cuts one frame whose body is given as spans (never copied) into pieces of at
// most `piece` bytes to write in order: the header leads the first, the
// trailer ends the last, and each piece's body bytes are checksummed when the
// piece is handed out, just before they are written.
class FrameWriter {
 public:
  using Spans = std::vector<std::pair<const std::uint8_t*, std::size_t>>;
  // checksum = false: the trailer is 0 (for a TLS link, see above).
  FrameWriter(FrameType t, std::shared_ptr<const ByteSpans> body, std::size_t piece, bool checksum = true);
  // The next piece; empty once the trailer has been handed out.
  const Spans& next();
  std::size_t frame_bytes() const { return header_.size() + body_->size() + kFrameTrailerBytes; }

 private:
  std::vector<std::uint8_t> header_, trailer_;
  std::shared_ptr<const ByteSpans> body_;
  std::size_t piece_;
  std::size_t span_ = 0, offset_ = 0;  // the next body byte to hand out
  std::uint32_t crc_ = 0;
  bool checksum_, started_ = false, finished_ = false;
  Spans out_;
};

// One received frame. kMessage frames arrive decoded (their tensors were read
// straight into place); every other type carries its raw body.
struct Frame {
  FrameType type = FrameType::kMessage;
  std::vector<std::uint8_t> body;  // empty for kMessage
  Message message;                 // kMessage only
};

// Incremental decoder for a byte stream.
class FrameDecoder {
 public:
  using Sink = std::function<void(Frame&&)>;
  explicit FrameDecoder(std::size_t max_body = kDefaultMaxFrameBytes) : max_body_(max_body) {}
  // Consumes n bytes, calling sink for every complete frame. Throws FrameError.
  void feed(const std::uint8_t* data, std::size_t n, const Sink& sink);
  // Zero-copy reading: read at most `second` bytes into `first`, then commit()
  // how many arrived. The body's checksum is computed as it arrives.
  std::pair<std::uint8_t*, std::size_t> prepare();
  void commit(std::size_t n, const Sink& sink);
  // True between the first byte of a frame and its last.
  bool mid_frame() const { return have_header_ > 0; }
  // Raises or lowers the limit for frames whose header has not arrived yet
  // (an authenticated link gets the job's limit).
  void set_max_body(std::size_t n) { max_body_ = n; }
  // false: trailers are neither computed nor checked (a TLS link, see above).
  void set_verify_checksum(bool v) { verify_ = v; }

 private:
  std::size_t max_body_;
  bool verify_ = true;
  std::uint8_t header_[kFrameHeaderBytes] = {};
  std::size_t have_header_ = 0;
  std::uint8_t trailer_[kFrameTrailerBytes] = {};
  std::size_t have_trailer_ = 0;
  FrameType type_ = FrameType::kMessage;
  std::uint32_t running_crc_ = 0;
  std::vector<std::uint8_t> body_;
  std::unique_ptr<MessageAssembler> assembler_;  // kMessage frames
  std::size_t want_ = 0, got_ = 0;
  void header_complete();
  void frame_complete(const Sink& sink);
};

// Parses one whole frame (a UDP datagram). Throws FrameError.
Frame parse_datagram(const std::uint8_t* data, std::size_t n, std::size_t max_body);

}  // namespace geotrain::real
