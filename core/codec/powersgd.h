// `powersgd` (Vogels et al., NeurIPS 2019): a tensor of n = rows x cols
// entries (rows the largest divisor of n not above sqrt(n), column-major) is
// sent as the rank-r factors P (rows x r) and Q (cols x r) of one power
// iteration, warm-started from the key's last Q, with error feedback:
// M = X + E, P = orth(M Q), Q = M^T P, E = M - P Q^T. Tensors that do not
// factor (rows < 2, or r >= rows) travel dense. Layout: u32 rows, u32 cols,
// u32 r, rows x r f32, cols x r f32 (column-major).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>

#include "core/codec/encoder.h"

namespace geotrain {

constexpr std::uint8_t kPowerSgdCodecId = 6;

void validate_powersgd(const CodedBlock& b);
void add_powersgd(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);
std::unique_ptr<Encoder> make_powersgd_encoder(int rank, std::uint64_t seed);
// What encoding an n-entry tensor at rank r writes; nullopt: it travels dense.
std::optional<std::uint64_t> powersgd_wire_bytes(int rank, std::uint64_t n);

}  // namespace geotrain
