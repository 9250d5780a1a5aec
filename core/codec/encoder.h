// A sender's side of a codec: encodes one tensor at a time, keeping what the
// codec remembers per key between encodes (error-feedback residuals, momentum,
// warm starts). One instance per sender and stream (tier and direction), so
// state never mixes across streams. Decoding is stateless and lives in the
// codec registry (any receiver can add any block it is sent).
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <optional>

#include "core/codec/coded_block.h"

namespace geotrain {

class Encoder {
 public:
  virtual ~Encoder() = default;
  // `x` (the tensor with this key) encoded, or nullopt: send it dense as it is.
  virtual std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) = 0;
};

}  // namespace geotrain
