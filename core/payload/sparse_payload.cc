#include "core/payload/sparse_payload.h"

#include "core/codec/sparse.h"

namespace geotrain {

void append_selected(Payload& p, std::uint32_t key, const Eigen::VectorXf& x,
                     const std::vector<std::uint32_t>& indices) {
  if (sparse_is_smaller(indices.size(), std::size_t(x.size()))) {
    p.coded.push_back(encode_sparse(key, x, indices));
    return;
  }
  ParamBlock b{key, Eigen::VectorXf::Zero(x.size())};
  for (std::uint32_t i : indices) b.values[Eigen::Index(i)] = x[Eigen::Index(i)];
  p.blocks.push_back(std::move(b));
}

bool carries_entries(const Payload& p) {
  for (const auto& b : p.blocks)
    if (b.values.size() > 0) return true;
  for (const auto& c : p.coded)
    if (c.codec != kSparseCodecId || sparse_count(c) > 0) return true;
  return false;
}

}  // namespace geotrain
