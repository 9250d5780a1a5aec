// libFuzzer target: best-effort datagram reassembly (real/datagram.h). The
// input is cut into datagrams; each is signed with the job's secret, so the
// fuzzer reaches the parser and the reassembly (unsigned input is tested too).
#include <cstdint>

#include "real/datagram.h"
#include "real/frame.h"

using namespace geotrain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string secret = "fuzz-secret-0123456789abcdef";
  // A small budget, so the drop-the-oldest path runs too.
  real::DatagramAssembler a(secret, 1, 4096);
  auto t = real::DatagramAssembler::Clock::time_point{};
  std::size_t at = 0;
  while (at + 2 <= size) {
    // A record: bit 7 of the first byte says "sign it", its low 3 bits and the second byte the length.
    const std::size_t n = std::min<std::size_t>(size - at - 2, std::size_t(data[at] & 7) << 8 | data[at + 1]);
    const bool sign = data[at] & 0x80;
    at += 2;
    real::Bytes d(data + at, data + at + n);
    at += n;
    if (sign) {
      const real::Bytes mac = real::hmac_sha256(secret, d);
      d.insert(d.end(), mac.begin(), mac.begin() + real::kDatagramMacBytes);
    }
    t += std::chrono::seconds(d.empty() ? 0 : d[0] % 8);  // time passes: old partial messages expire
    try {
      (void)a.add(d.data(), d.size(), t);
    } catch (const std::exception&) {
    }
    if (a.partial_bytes() > 4096) __builtin_trap();  // the reassembly budget holds
  }
  return 0;
}
