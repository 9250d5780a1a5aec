// Fixed-width values to and from byte buffers, in host (little-endian on the
// platforms geotrain supports) order, without alignment assumptions. The one
// place the wire codec, the framing and the datagram headers share.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

namespace geotrain {

template <class T>
void append_raw(std::vector<std::uint8_t>& out, T v) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof v);
}

template <class T>
T load_raw(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
void store_raw(std::uint8_t* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

}  // namespace geotrain
