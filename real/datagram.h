// Best-effort messages over UDP: an encoded Message (core/payload/wire.h) cut by the
// core's datagram discipline (core/runtime/fragments.h) into fragments of at most
// a chunk's bytes, each a kFragment frame (real/frame.h) whose body is the
// FragmentHeader then the chunk, followed by the first kDatagramMacBytes of an
// HMAC-SHA256 over the frame with the job's secret. This file only signs,
// frames and checks; which messages are complete, and when a partial one is
// lost, the core's Reassembler decides.
#pragma once
#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/payload/message.h"
#include "core/runtime/fragments.h"
#include "real/auth.h"

namespace geotrain::real {

// A datagram's chunk: about one Ethernet segment, as the simulator's UDP
// datagrams are, so a relay's per-datagram loss rate means what a link's
// per-packet loss rate means in simulation.
constexpr std::size_t kDatagramChunk = 1400;

// The datagrams for message number `id` from `from`, signed.
std::vector<Bytes> make_datagrams(std::int32_t from, std::uint64_t id, const Bytes& encoded, const std::string& secret);

class DatagramAssembler {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr auto kPartialLifetime = std::chrono::nanoseconds(kFragmentLifetimeNs);

  // `max_partial_bytes` bounds the fragments held for incomplete messages; the
  // oldest incomplete message is dropped to make room.
  DatagramAssembler(std::string secret, std::int32_t self, std::size_t max_partial_bytes = std::size_t(64) << 20);

  // Checks one datagram (length, HMAC, frame, fragment header) and files it.
  // Returns the message once its last fragment is in. Throws FrameError or
  // WireError on anything malformed or forged: the caller counts and drops it.
  // A message whose number this sender used before (a datagram captured and
  // replayed: it passes the HMAC) is refused too. REQUIRES of senders: message
  // numbers increase, also across a restart (RealNode uses the clock's ns).
  std::optional<Message> add(const std::uint8_t* data, std::size_t n, Clock::time_point now);
  std::uint64_t replays_refused() const { return replays_; }
  std::size_t partial_messages() const { return reassembler_.partial_messages(); }
  std::size_t partial_bytes() const { return reassembler_.partial_bytes(); }
  const Reassembler::Counters& counters() const { return reassembler_.counters(); }

 private:
  bool first_use(std::int32_t from, std::uint64_t msg);

  std::string secret_;
  std::int32_t self_;
  Reassembler reassembler_;
  // Per sender, the numbers of its last kReplayWindow messages: a number seen
  // again, or older than all of them, is a replay (reordering deeper than the
  // window is treated as one).
  static constexpr std::size_t kReplayWindow = 4096;
  std::map<std::int32_t, std::set<std::uint64_t>> recent_;
  std::uint64_t replays_ = 0;
};

}  // namespace geotrain::real
