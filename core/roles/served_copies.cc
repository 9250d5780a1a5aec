#include "core/roles/served_copies.h"

#include <algorithm>

#include "core/codec/codec_registry.h"

namespace geotrain {
namespace {

using Layout = std::vector<std::pair<std::uint32_t, Eigen::Index>>;  // (key, length), keys ascending

Layout layout_of(const ParamSet& p) {
  Layout l;
  for (const auto& b : p) l.push_back({b.key, b.values.size()});
  return l;
}

Layout layout_of(const Payload& p) {
  Layout l = layout_of(p.blocks);
  for (const auto& c : p.coded)
    if (l.empty() || l.back().first != c.key) l.push_back({c.key, Eigen::Index(c.n)});
  std::sort(l.begin(), l.end());
  return l;
}

// Shapes `copy` as `like`: its keys in its order, each block as long. A block
// that grew keeps its entries, zero-extended (a model that appends, as a
// growing forest does); a key the copy lacks starts as zeros; keys `like`
// lacks are dropped (blocks a server keeps for itself). False where a block
// shrank: the copy cannot follow, the whole model must travel.
bool align(ParamSet& copy, const Layout& like) {
  ParamSet out;
  out.reserve(like.size());
  bool ok = true;
  for (const auto& [key, n] : like) {
    auto it = std::find_if(copy.begin(), copy.end(), [k = key](const ParamBlock& b) { return b.key == k; });
    if (it == copy.end()) {
      out.push_back({key, Eigen::VectorXf::Zero(n)});
      continue;
    }
    ParamBlock b = std::move(*it);
    const Eigen::Index had = b.values.size();
    if (had > n) ok = false;
    if (had < n) {
      b.values.conservativeResize(n);
      b.values.tail(n - had).setZero();
    }
    out.push_back(std::move(b));
  }
  copy = std::move(out);
  return ok;
}

ParamSet zeros_of(const Layout& l) {
  ParamSet p;
  for (const auto& [key, n] : l) p.push_back({key, Eigen::VectorXf::Zero(n)});
  return p;
}

}  // namespace

Payload& ServedCopies::copy(NodeId child) {
  auto it = copies_.find(child);
  if (it == copies_.end()) {
    Payload start;
    start.blocks = *initial_;
    it = copies_.emplace(child, std::move(start)).first;
  }
  return it->second;
}

Sent ServedCopies::serve(NodeId child, const ParamSet& params, StreamEncoder& codec, bool whole, TimeNs now) {
  whole = whole || (unknown_ && !copies_.count(child));
  Payload& c = copy(child);
  if (!align(c.blocks, layout_of(params))) whole = true;  // a block shrank: start again from zeros
  if (whole) c.blocks = zeros_like(params);
  auto change = std::make_shared<Payload>();
  change->from_zero = whole;
  change->blocks = params;
  add_scaled(change->blocks, c.blocks, -1.0f);
  // The child's own sequence of draws: independent of the order children ask in.
  const std::uint64_t draw = (std::uint64_t(child) << 40) + served_[child]++;
  Sent sent = codec.encode(std::move(change), now, draw);
  accumulate(c, *sent.payload);  // what the child holds once it adds it, computed the same way
  return sent;
}

void ServedCopies::add_own_push(NodeId child, const Payload& push) { accumulate(copy(child), push); }

void apply_served(ParamSet& copy, const Payload& response) {
  const Layout layout = layout_of(response);
  if (response.from_zero)
    copy = zeros_of(layout);
  else if (!align(copy, layout))
    throw CodecError("a pulled change is shorter than the model it changes");
  Payload p;
  p.blocks = std::move(copy);
  accumulate(p, response);
  copy = std::move(p.blocks);
}

}  // namespace geotrain
