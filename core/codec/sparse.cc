#include "core/codec/sparse.h"

#include <cmath>
#include <cstring>

#include "core/base/bytes.h"

namespace geotrain {

CodedBlock encode_sparse_values(std::uint32_t key, std::uint32_t n, const std::vector<std::uint32_t>& indices,
                                const std::vector<float>& values) {
  CodedBlock b;
  b.key = key;
  b.n = n;
  b.codec = kSparseCodecId;
  const std::size_t k = indices.size();
  b.bytes.resize(4 + 8 * k);
  store_raw<std::uint32_t>(b.bytes.data(), std::uint32_t(k));
  std::memcpy(b.bytes.data() + 4, indices.data(), 4 * k);
  std::memcpy(b.bytes.data() + 4 + 4 * k, values.data(), 4 * k);
  return b;
}

CodedBlock encode_sparse(std::uint32_t key, const Eigen::VectorXf& x, const std::vector<std::uint32_t>& indices) {
  std::vector<float> values(indices.size());
  for (std::size_t j = 0; j < indices.size(); ++j) values[j] = x[Eigen::Index(indices[j])];
  return encode_sparse_values(key, std::uint32_t(x.size()), indices, values);
}

namespace {
std::vector<std::uint32_t> nonzero_indices(const Eigen::VectorXf& x) {
  std::vector<std::uint32_t> idx;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (x[i] != 0.0f) idx.push_back(std::uint32_t(i));
  return idx;
}

}  // namespace

bool sparse_is_smaller(std::size_t k, std::size_t n) {
  return kCodedHeaderBytes + 4 + 8 * std::uint64_t(k) < kBlockHeaderBytes + 4 * std::uint64_t(n);
}

CodedBlock encode_nonzeros(std::uint32_t key, const Eigen::VectorXf& x) {
  return encode_sparse(key, x, nonzero_indices(x));
}

namespace {
class Nonzeros : public Encoder {
 public:
  std::optional<CodedBlock> encode(std::uint32_t key, const Eigen::VectorXf& x) override {
    const std::vector<std::uint32_t> idx = nonzero_indices(x);
    if (!sparse_is_smaller(idx.size(), std::size_t(x.size()))) return std::nullopt;  // dense is smaller
    return encode_sparse(key, x, idx);
  }
};
}  // namespace

std::unique_ptr<Encoder> make_nonzeros_encoder() { return std::make_unique<Nonzeros>(); }

std::uint32_t sparse_count(const CodedBlock& b) { return load_raw<std::uint32_t>(b.bytes.data()); }

void validate_sparse(const CodedBlock& b) {
  if (b.codec != kSparseCodecId) throw CodecError("not a sparse block");
  if (b.bytes.size() < 4) throw CodecError("sparse block: no count");
  const std::uint64_t k = sparse_count(b);
  if (k > b.n || b.bytes.size() != 4 + 8 * k) throw CodecError("sparse block: count does not match its length");
  const std::uint8_t* idx = b.bytes.data() + 4;
  std::int64_t prev = -1;
  for (std::uint64_t j = 0; j < k; ++j) {
    const std::uint32_t i = load_raw<std::uint32_t>(idx + 4 * j);
    if (i >= b.n || std::int64_t(i) <= prev) throw CodecError("sparse block: index out of range or out of order");
    prev = i;
    if (!std::isfinite(load_raw<float>(idx + 4 * k + 4 * j))) throw CodecError("sparse block: non-finite value");
  }
}

void add_sparse(const CodedBlock& b, float scale, Eigen::Ref<Eigen::VectorXf> into) {
  const std::uint32_t k = sparse_count(b);
  const std::uint8_t* idx = b.bytes.data() + 4;
  const std::uint8_t* val = idx + 4ull * k;
  for (std::uint32_t j = 0; j < k; ++j)
    into[Eigen::Index(load_raw<std::uint32_t>(idx + 4ull * j))] += scale * load_raw<float>(val + 4ull * j);
}

}  // namespace geotrain
