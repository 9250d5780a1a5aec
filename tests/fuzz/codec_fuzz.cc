// libFuzzer target: every codec format's validation and decoding
// (core/codec/codec_registry.h). Input: one byte of format id, four of the
// tensor length (modulo 2^20), then the encoded bytes. Whatever validates must
// decode into a tensor of that length without reading or writing outside it,
// and add only finite values to it (a hostile peer cannot poison a model).
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "core/codec/codec_registry.h"

using namespace geotrain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 5) return 0;
  CodedBlock b;
  b.codec = data[0];
  std::uint32_t n;
  std::memcpy(&n, data + 1, 4);
  b.n = n % (1u << 20);
  b.bytes.assign(data + 5, data + size);
  try {
    validate_block(b);
  } catch (const CodecError&) {
    return 0;
  }
  Eigen::VectorXf into = Eigen::VectorXf::Zero(b.n);
  add_decoded(b, 1.0f, into);
  if (!into.allFinite()) std::abort();  // a block that validates never poisons the tensor it is added to
  return 0;
}
