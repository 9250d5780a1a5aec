// The `sparse` encoding: the entries of a tensor that a selection rule keeps,
// as (index, value) pairs; every other entry is zero. Layout, little-endian:
// u32 count, count x u32 strictly increasing indices < n, count x f32 values.
// Lossless for what it keeps. Used where the caller decides what crosses (Gaia's
// significance filter, a server's pull of only what changed) and by the
// sparsifying codecs.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/codec/coded_block.h"
#include "core/codec/encoder.h"

namespace geotrain {

constexpr std::uint8_t kSparseCodecId = 1;

// Encodes x[i] for the given indices (strictly increasing, < x.size()).
CodedBlock encode_sparse(std::uint32_t key, const Eigen::VectorXf& x, const std::vector<std::uint32_t>& indices);
// The same from the chosen indices and their values.
CodedBlock encode_sparse_values(std::uint32_t key, std::uint32_t n, const std::vector<std::uint32_t>& indices,
                                const std::vector<float>& values);
// Encodes the non-zero entries of x.
CodedBlock encode_nonzeros(std::uint32_t key, const Eigen::VectorXf& x);
// Throws CodecError unless `b` is a well-formed sparse block.
void validate_sparse(const CodedBlock& b);
// into += scale * decoded(b). REQUIRES: validate_sparse(b) passed, into.size() == b.n.
void add_sparse(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into);
// Is k entries of an n-entry tensor smaller on the wire sparse than dense?
bool sparse_is_smaller(std::size_t k, std::size_t n);
// The `sparse` codec: every non-zero entry (lossless; what a server's pull of
// changes sends when only some entries moved, e.g. bsc's aggregate).
std::unique_ptr<Encoder> make_nonzeros_encoder();
// How many entries a sparse block carries.
std::uint32_t sparse_count(const CodedBlock& b);

}  // namespace geotrain
