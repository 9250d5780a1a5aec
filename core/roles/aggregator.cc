#include "core/roles/aggregator.h"

#include <algorithm>

namespace geotrain {

bool Aggregator::add(NodeId from, std::shared_ptr<const Payload> p) {
  if (!pushed_.emplace(from, std::move(p)).second) return false;  // duplicate
  live_.insert(from);                                             // it is alive, and will be acknowledged
  ++live_pushed_;
  return complete();
}

bool Aggregator::drop(NodeId m) {
  if (live_.erase(m) == 0) return false;
  if (pushed_.count(m)) --live_pushed_;
  return complete();
}

void Aggregator::readmit(NodeId m) {
  if (live_.insert(m).second && pushed_.count(m)) ++live_pushed_;
}

bool Aggregator::complete() const {
  return policy_.round_complete({pushed_.size(), live_.size(), live_pushed_ == live_.size()});
}

std::shared_ptr<Payload> Aggregator::take(std::vector<NodeId>* contributors) {
  if (contributors) contributors->clear();
  if (pushed_.empty()) return nullptr;
  auto sum = std::make_shared<Payload>();
  for (const auto& [from, p] : pushed_) {
    if (contributors) contributors->push_back(from);
    if (!sum->blocks.empty()) {
      merge(*sum, *p, rules_);
      continue;
    }
    // Nothing to merge into yet: this push, dense, is what the rest merge into. Those before it carried no
    // blocks (a scheduled group's member whose update travels in another's push): only their counts add.
    const double loss = sum->loss_sum;
    const int steps = sum->contributors;
    *sum = p->coded.empty() ? *p : densify(*p);
    sum->loss_sum += loss;
    sum->contributors += steps;
  }
  pushed_.clear();
  live_pushed_ = 0;
  return sum;
}

}  // namespace geotrain
