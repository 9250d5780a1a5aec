#include "core/payload/merge.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "core/codec/codec_registry.h"

namespace geotrain {
namespace {

const BlockRule* rule_for(const std::vector<BlockRule>& rules, std::uint32_t key) {
  for (const auto& r : rules)
    if (r.key == key) return &r;
  return nullptr;
}

Eigen::VectorXf* find_block(ParamSet& blocks, std::uint32_t key) {
  for (auto& b : blocks)
    if (b.key == key) return &b.values;
  return nullptr;
}

// The k smallest of both candidate lists, by distance then the candidate's other
// entries: a total order on values, so the result does not depend on which
// side a candidate came from. Missing candidates are +inf distances.
void k_smallest(Eigen::VectorXf& into, const Eigen::VectorXf& from, std::uint32_t width, std::uint32_t k) {
  const Eigen::Index w = std::max<Eigen::Index>(1, width);
  const Eigen::Index n = into.size() / w + from.size() / w;
  std::vector<const float*> cands;
  cands.reserve(std::size_t(n));
  for (Eigen::Index i = 0; i + w <= into.size(); i += w) cands.push_back(into.data() + i);
  for (Eigen::Index i = 0; i + w <= from.size(); i += w) cands.push_back(from.data() + i);
  std::sort(cands.begin(), cands.end(),
            [w](const float* a, const float* b) { return std::lexicographical_compare(a, a + w, b, b + w); });
  const Eigen::Index keep = std::min<Eigen::Index>(Eigen::Index(k), Eigen::Index(cands.size()));
  Eigen::VectorXf out = Eigen::VectorXf::Constant(into.size(), std::numeric_limits<float>::infinity());
  for (Eigen::Index c = 0; c < keep && (c + 1) * w <= out.size(); ++c)
    std::copy(cands[std::size_t(c)], cands[std::size_t(c)] + w, out.data() + c * w);
  into = std::move(out);
}

}  // namespace

void merge_block(Eigen::VectorXf& into, const Eigen::VectorXf& from, const BlockRule& rule) {
  if (into.size() != from.size()) throw CodecError("a block's length does not match the merge");
  switch (rule.merge) {
    case Merge::kSum: into += from; return;
    case Merge::kMax: into = into.cwiseMax(from); return;
    case Merge::kMin: into = into.cwiseMin(from); return;
    case Merge::kKSmallest: k_smallest(into, from, rule.width, rule.k); return;
  }
}

void merge(Payload& into, const Payload& p, const std::vector<BlockRule>& rules) {
  if (rules.empty()) return accumulate(into, p);  // every key sums: the common case, unchanged
  const Payload dense = p.coded.empty() ? Payload{} : densify(p);
  const Payload& src = p.coded.empty() ? p : dense;
  Payload sums;  // the keys that sum go through accumulate, as without rules
  sums.loss_sum = src.loss_sum;
  sums.contributors = src.contributors;
  for (const auto& b : src.blocks) {
    const BlockRule* r = rule_for(rules, b.key);
    if (!r || r->merge == Merge::kSum) {
      sums.blocks.push_back(b);
      continue;
    }
    Eigen::VectorXf* v = find_block(into.blocks, b.key);
    if (!v) throw CodecError("a merged block's key is not in the sum");
    merge_block(*v, b.values, *r);
  }
  accumulate(into, sums);
}

const char* merge_name(Merge m) {
  switch (m) {
    case Merge::kSum: return "sum";
    case Merge::kMax: return "max";
    case Merge::kMin: return "min";
    case Merge::kKSmallest: return "k-smallest";
  }
  return "?";
}

}  // namespace geotrain
