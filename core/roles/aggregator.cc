#include "core/roles/aggregator.h"

namespace geotrain {

bool Aggregator::add(const Payload& p) {
  if (!sum_) {
    sum_ = std::make_shared<Payload>(p);
  } else {
    add_scaled(sum_->blocks, p.blocks);
    sum_->loss_sum += p.loss_sum;
    sum_->contributors += p.contributors;
  }
  return ++received_ == expected_;
}

std::shared_ptr<Payload> Aggregator::take() {
  received_ = 0;
  return std::move(sum_);
}

}  // namespace geotrain
