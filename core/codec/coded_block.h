// An encoded parameter block: what a codec makes of one tensor. It names the
// codec that wrote it (as leveldb stores a filter's Name() beside its data), so
// a receiver decodes it with the right one or rejects it: never garbage.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace geotrain {

struct CodedBlock {
  std::uint32_t key = 0;
  std::uint32_t n = 0;     // the dense tensor's length
  std::uint8_t codec = 0;  // CodecInfo::id of the codec that wrote `bytes`
  std::vector<std::uint8_t> bytes;
};

// Malformed encoded bytes: wrong codec id, lengths or indices that lie.
class CodecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace geotrain
