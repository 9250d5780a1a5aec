#include "core/roles/served_copies.h"

namespace geotrain {

Payload& ServedCopies::copy(NodeId child) {
  auto it = copies_.find(child);
  if (it == copies_.end()) {
    Payload start;
    start.blocks = *initial_;
    it = copies_.emplace(child, std::move(start)).first;
  }
  return it->second;
}

std::shared_ptr<const Payload> ServedCopies::serve(NodeId child, const ParamSet& params, StreamEncoder& codec,
                                                   bool whole, TimeNs now) {
  whole = whole || (unknown_ && !copies_.count(child));
  Payload& c = copy(child);
  if (whole) c.blocks = zeros_like(params);
  auto change = std::make_shared<Payload>();
  change->from_zero = whole;
  change->blocks = params;
  add_scaled(change->blocks, c.blocks, -1.0f);
  std::shared_ptr<const Payload> sent = codec.encode(std::move(change), now);
  accumulate(c, *sent);  // what the child holds once it adds it, computed the same way
  return sent;
}

void ServedCopies::add_own_push(NodeId child, const Payload& push) { accumulate(copy(child), push); }

void apply_served(ParamSet& copy, const Payload& response) {
  if (response.from_zero) copy = zeros_like(copy);
  Payload p;
  p.blocks = std::move(copy);
  accumulate(p, response);
  copy = std::move(p.blocks);
}

}  // namespace geotrain
