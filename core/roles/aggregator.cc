#include "core/roles/aggregator.h"

#include <algorithm>

namespace geotrain {

bool Aggregator::add(NodeId from, std::shared_ptr<const Payload> p) {
  if (!pushed_.emplace(from, std::move(p)).second) return false;  // duplicate
  live_.insert(from);                                             // it is alive, and will be acknowledged
  return complete();
}

bool Aggregator::drop(NodeId m) {
  if (live_.erase(m) == 0) return false;
  return complete();
}

bool Aggregator::complete() const {
  // Every live member pushed: one walk over both, each in ascending id order.
  bool all_live_pushed = true;
  auto p = pushed_.begin();
  for (NodeId m : live_) {
    while (p != pushed_.end() && p->first < m) ++p;
    if (p == pushed_.end() || p->first != m) {
      all_live_pushed = false;
      break;
    }
  }
  return policy_.round_complete({pushed_.size(), live_.size(), all_live_pushed});
}

std::shared_ptr<Payload> Aggregator::take(std::vector<NodeId>* contributors) {
  if (contributors) contributors->clear();
  std::shared_ptr<Payload> sum;
  for (const auto& [from, p] : pushed_) {
    if (contributors) contributors->push_back(from);
    if (!sum) {
      sum = std::make_shared<Payload>(p->coded.empty() ? *p : densify(*p));
    } else if (sum->blocks.empty() && !(p->blocks.empty() && p->coded.empty())) {
      // The first push that carries blocks is what the rest merge into; those before it carried
      // none (a scheduled group's member whose update travels in another's push): their counts add.
      Payload base = p->coded.empty() ? *p : densify(*p);
      base.loss_sum += sum->loss_sum;
      base.contributors += sum->contributors;
      *sum = std::move(base);
    } else {
      merge(*sum, *p, rules_);
    }
  }
  pushed_.clear();
  return sum;
}

}  // namespace geotrain
