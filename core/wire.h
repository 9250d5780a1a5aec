// Byte encoding of a Message for real networks (simulation never serialises).
// Layout, little-endian: u8 kind, u8 channel, i32 priority, i32 from, i32 to,
// i64 round, u8 has_payload, then if present: f64 loss_sum, i32 contributors,
// u32 block count, per block: u32 key, u32 n, n x f32.
// decode() validates every length against the buffer and throws WireError on
// anything malformed: a hostile peer cannot make it read out of bounds.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/message.h"

namespace geotrain {

class WireError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::vector<std::uint8_t> encode_message(const Message& m);
Message decode_message(const std::uint8_t* data, std::size_t size);

}  // namespace geotrain
