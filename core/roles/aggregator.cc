#include "core/roles/aggregator.h"

#include <algorithm>

namespace geotrain {

bool Aggregator::add(NodeId from, const Payload& p) {
  if (!pushed_.insert(from).second) return false;  // duplicate
  live_.insert(from);                              // it is alive, and will be acknowledged
  if (!sum_)
    sum_ = std::make_shared<Payload>(p.coded.empty() ? p : densify(p));
  else
    merge(*sum_, p, rules_);
  return complete();
}

bool Aggregator::drop(NodeId m) {
  if (live_.erase(m) == 0) return false;
  return complete();
}

bool Aggregator::complete() const {
  return policy_.round_complete(
      {pushed_.size(), live_.size(), std::includes(pushed_.begin(), pushed_.end(), live_.begin(), live_.end())});
}

std::shared_ptr<Payload> Aggregator::take(std::vector<NodeId>* contributors) {
  if (contributors) contributors->assign(pushed_.begin(), pushed_.end());
  pushed_.clear();
  return std::move(sum_);
}

}  // namespace geotrain
