// Best-effort messages over UDP: an encoded Message (core/wire.h) split into
// fragments of at most kDatagramChunk bytes, each a kFragment frame
// (real/frame.h) whose body is: i32 sender, u64 message id, u16 index,
// u16 count, then the chunk; followed by the first kDatagramMacBytes of an
// HMAC-SHA256 over the frame with the job's secret. A message is delivered
// only when every fragment arrived ("all fragments or lost"); partial ones are
// forgotten after kPartialLifetime, and their memory is bounded.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/message.h"
#include "real/auth.h"

namespace geotrain::real {

constexpr std::size_t kDatagramChunk = 60000;
constexpr std::size_t kFragmentHeaderBytes = 4 + 8 + 2 + 2;

// The datagrams for message number `id` from `from`, signed.
std::vector<Bytes> make_datagrams(std::int32_t from, std::uint64_t id, const Bytes& encoded, const std::string& secret);

class DatagramAssembler {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr auto kPartialLifetime = std::chrono::seconds(30);

  // `max_partial_bytes` bounds the fragments held for incomplete messages; the
  // oldest incomplete message is dropped to make room.
  DatagramAssembler(std::string secret, std::int32_t self, std::size_t max_partial_bytes = std::size_t(64) << 20);

  // Checks one datagram (length, HMAC, frame, fragment header) and files it.
  // Returns the message once its last fragment is in. Throws FrameError or
  // WireError on anything malformed or forged: the caller counts and drops it.
  std::optional<Message> add(const std::uint8_t* data, std::size_t n, Clock::time_point now);
  std::size_t partial_messages() const { return partial_.size(); }
  std::size_t partial_bytes() const { return partial_bytes_; }

 private:
  struct Partial {
    std::vector<Bytes> parts;
    std::size_t have = 0, bytes = 0;
    Clock::time_point first;
  };
  void forget(std::map<std::pair<std::int32_t, std::uint64_t>, Partial>::iterator it);

  std::string secret_;
  std::int32_t self_;
  std::size_t max_partial_bytes_, partial_bytes_ = 0;
  std::map<std::pair<std::int32_t, std::uint64_t>, Partial> partial_;
};

}  // namespace geotrain::real
