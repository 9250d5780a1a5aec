// libFuzzer target: the wire decoder (core/payload/wire.h), whole and incremental.
// Whatever decodes must re-encode to the same bytes, and both decoders agree.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/payload/wire.h"

using namespace geotrain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  bool whole_ok = false;
  try {
    const Message m = decode_message(data, size);
    whole_ok = true;
    const std::vector<std::uint8_t> again = encode_message(m);
    if (again.size() != size || std::memcmp(again.data(), data, size) != 0) std::abort();  // not a round trip
  } catch (const WireError&) {
  }
  bool pieces_ok = false;
  try {
    MessageAssembler a(size);
    std::size_t at = 0;
    while (at < size) {
      auto [dst, room] = a.prepare();
      const std::size_t k = std::min(room, size - at);
      std::memcpy(dst, data + at, k);
      a.commit(k);
      at += k;
    }
    if (a.done()) {
      (void)a.take();
      pieces_ok = true;
    }
  } catch (const WireError&) {
  }
  if (whole_ok != pieces_ok) std::abort();  // the two decoders must accept the same inputs
  return 0;
}
