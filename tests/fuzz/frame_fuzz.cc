// libFuzzer target: the real-mode stream decoder (real/frame.h) fed arbitrary
// bytes in arbitrary pieces, with the pre-authentication limit and with a
// job-sized limit (so kMessage frames reach the message assembler).
#include <cstdint>
#include <cstring>

#include "core/payload/wire.h"
#include "real/frame.h"

using namespace geotrain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::size_t piece = 1 + data[0] % 64;  // how the bytes arrive: 1-64 at a time
  const std::size_t limit = data[0] & 0x80 ? real::kPreAuthMaxFrameBytes : std::size_t(1) << 20;
  ++data, --size;
  real::FrameDecoder d(limit);
  std::size_t frames = 0;
  try {
    while (size > 0) {
      auto [dst, room] = d.prepare();
      const std::size_t k = std::min({room, piece, size});
      std::memcpy(dst, data, k);
      d.commit(k, [&](real::Frame&& f) {
        ++frames;
        if (f.type == real::FrameType::kMessage) (void)encode_message(f.message);  // what arrived is well-formed
      });
      data += k;
      size -= k;
    }
  } catch (const real::FrameError&) {
  }
  return 0;
}
