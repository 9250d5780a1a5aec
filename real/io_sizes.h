// How many bytes a real-mode link hands the kernel per call, measured with
// bench/real_throughput.py (100 MB push+pull on loopback): writes of 1 MiB
// (4 and 16 MiB were slower), reads of 256 KiB (1 MiB and one read per block
// were slower; 256 KiB also fits a core's L2 cache, so the checksum, the
// finite-value check and TLS decryption that follow run on bytes in cache).
#pragma once
#include <cstddef>

namespace geotrain::real {

constexpr std::size_t kWriteBytes = std::size_t(1) << 20;
constexpr std::size_t kReadBytes = std::size_t(256) << 10;

}  // namespace geotrain::real
