#include "core/runtime/fragments.h"

#include <stdexcept>

#include "core/payload/wire.h"

namespace geotrain {

std::uint16_t fragment_count(std::uint64_t bytes, std::size_t chunk) {
  const std::uint64_t n = std::max<std::uint64_t>(1, (bytes + chunk - 1) / chunk);
  if (n > 0xFFFF) throw std::invalid_argument("message too large for best-effort datagrams");
  return std::uint16_t(n);
}

void append_fragment_header(FragmentBytes& out, const FragmentHeader& h) {
  append_raw<std::int32_t>(out, h.from);
  append_raw<std::uint64_t>(out, h.msg);
  append_raw<std::uint16_t>(out, h.index);
  append_raw<std::uint16_t>(out, h.count);
}

FragmentHeader read_fragment_header(const std::uint8_t* p, std::size_t n) {
  if (n < kFragmentHeaderBytes) throw WireError("fragment shorter than its header");
  FragmentHeader h;
  h.from = load_raw<std::int32_t>(p);
  h.msg = load_raw<std::uint64_t>(p + 4);
  h.index = load_raw<std::uint16_t>(p + 12);
  h.count = load_raw<std::uint16_t>(p + 14);
  return h;
}

Reassembler::Reassembler(std::size_t max_partial_bytes, TimeNs lifetime)
    : max_partial_bytes_(max_partial_bytes), lifetime_(lifetime) {}

void Reassembler::forget(std::map<Key, Partial>::iterator it) {
  partial_bytes_ -= it->second.bytes;
  partial_.erase(it);
}

void Reassembler::expire(TimeNs now) {
  for (auto it = partial_.begin(); it != partial_.end();) {
    auto next = std::next(it);
    if (now - it->second.first > lifetime_) {
      forget(it);
      ++counters_.expired;
    }
    it = next;
  }
}

std::optional<std::vector<FragmentBytes>> Reassembler::add(const FragmentHeader& h, std::size_t size,
                                                           FragmentBytes chunk, TimeNs now) {
  expire(now);
  const auto reject = [this](const char* why) {
    ++counters_.rejected;
    return WireError(why);
  };
  if (h.count == 0 || h.index >= h.count) throw reject("bad fragment index");
  if (!chunk.empty() && chunk.size() != size) throw reject("fragment length does not match its contents");
  if (size > max_partial_bytes_) throw reject("fragment larger than the reassembly budget");
  const Key key{h.from, h.msg};
  auto it = partial_.find(key);
  if (it != partial_.end() && it->second.parts.size() != h.count) throw reject("fragment count changed");
  if (it != partial_.end() && it->second.have[h.index]) {
    ++counters_.duplicates;
    return std::nullopt;
  }
  // Room for this fragment: the oldest incomplete messages go first.
  while (partial_bytes_ + size > max_partial_bytes_ && !partial_.empty()) {
    auto oldest = partial_.begin();
    for (auto o = partial_.begin(); o != partial_.end(); ++o)
      if (o->second.first < oldest->second.first) oldest = o;
    if (oldest == it) it = partial_.end();
    forget(oldest);
    ++counters_.expired;
  }
  if (it == partial_.end()) {
    it = partial_.emplace(key, Partial{}).first;
    it->second.parts.resize(h.count);
    it->second.have.assign(h.count, false);
    it->second.first = now;
  }
  Partial& p = it->second;
  p.parts[h.index] = std::move(chunk);
  p.have[h.index] = true;
  p.bytes += size;
  partial_bytes_ += size;
  if (++p.received < h.count) return std::nullopt;
  std::vector<FragmentBytes> parts = std::move(p.parts);
  forget(it);
  ++counters_.delivered;
  return parts;
}

}  // namespace geotrain
