// The best-effort channel's one datagram discipline, for both runtimes: a
// message is cut into fragments of at most the path's datagram payload, each
// with a FragmentHeader; the receiver's Reassembler delivers a message only
// when every fragment is in ("all fragments or lost") and forgets partial
// ones after a lifetime, within a memory budget. The runtimes only move
// datagrams: real mode writes each fragment's header and its slice of the
// encoded message into a signed UDP datagram; the simulator sends a packet of
// the fragment's size and keeps the message object beside it.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "core/base/bytes.h"
#include "core/base/time.h"

namespace geotrain {

using FragmentBytes = std::vector<std::uint8_t>;

struct FragmentHeader {
  std::int32_t from = -1;  // the sending node
  std::uint64_t msg = 0;   // the sender's message number
  std::uint16_t index = 0, count = 0;
};
constexpr std::size_t kFragmentHeaderBytes = 4 + 8 + 2 + 2;
// A partial message is forgotten (its message lost) this long after its first fragment.
constexpr TimeNs kFragmentLifetimeNs = 30 * kNsPerSecond;

// How many fragments a message of `bytes` takes at `chunk` bytes each (at
// least one). Throws std::invalid_argument past 65535.
std::uint16_t fragment_count(std::uint64_t bytes, std::size_t chunk);
void append_fragment_header(FragmentBytes& out, const FragmentHeader& h);
// Reads a header from the front of n bytes. Throws WireError when n is too short.
FragmentHeader read_fragment_header(const std::uint8_t* p, std::size_t n);

class Reassembler {
 public:
  struct Counters {
    std::uint64_t delivered = 0;  // messages complete
    std::uint64_t expired = 0;    // partial messages forgotten: lifetime over, or no room
    std::uint64_t rejected = 0;   // malformed fragments (add threw)
    std::uint64_t duplicates = 0;
  };
  explicit Reassembler(std::size_t max_partial_bytes = std::size_t(64) << 20, TimeNs lifetime = kFragmentLifetimeNs);
  // Files fragment `h` of `size` bytes; `chunk` holds them (real mode) or is
  // empty (the simulator carries the message beside). Returns the message's
  // chunks in order once its last fragment is in. Throws WireError (counted as
  // rejected) on an index past the count, a count that changed, a fragment
  // larger than the budget.
  std::optional<std::vector<FragmentBytes>> add(const FragmentHeader& h, std::size_t size, FragmentBytes chunk,
                                                TimeNs now);
  // Forgets partial messages older than the lifetime (add does it too).
  void expire(TimeNs now);
  std::size_t partial_messages() const { return partial_.size(); }
  std::size_t partial_bytes() const { return partial_bytes_; }
  const Counters& counters() const { return counters_; }

 private:
  struct Partial {
    std::vector<FragmentBytes> parts;
    std::vector<bool> have;
    std::size_t received = 0, bytes = 0;
    TimeNs first = 0;
  };
  using Key = std::pair<std::int32_t, std::uint64_t>;
  void forget(std::map<Key, Partial>::iterator it);
  std::size_t max_partial_bytes_, partial_bytes_ = 0;
  TimeNs lifetime_;
  std::map<Key, Partial> partial_;
  Counters counters_;
};

}  // namespace geotrain
