#include "core/block_pool.h"

#include <algorithm>

namespace geotrain {

BlockPool& BlockPool::process() {
  static BlockPool pool;
  return pool;
}

Eigen::VectorXf BlockPool::take(std::size_t n) {
  if (n >= kMinFloats) {
    std::lock_guard<std::mutex> lock(mu_);
    const auto it = std::find_if(kept_.rbegin(), kept_.rend(),
                                 [n](const Eigen::VectorXf& v) { return std::size_t(v.size()) == n; });
    if (it != kept_.rend()) {
      Eigen::VectorXf v = std::move(*it);
      kept_.erase(std::next(it).base());
      return v;
    }
  }
  return Eigen::VectorXf(Eigen::Index(n));  // uninitialised
}

void BlockPool::give(Eigen::VectorXf&& v) {
  if (std::size_t(v.size()) < kMinFloats) return;
  std::lock_guard<std::mutex> lock(mu_);
  if (kept_.size() == kMaxKept) kept_.erase(kept_.begin());
  kept_.push_back(std::move(v));
}

std::size_t BlockPool::kept() const {
  std::lock_guard<std::mutex> lock(mu_);
  return kept_.size();
}

namespace {
// Owns the payload; its destructor runs when the last aliasing shared_ptr goes.
struct PooledPayload {
  Payload payload;
  PooledPayload() = default;
  PooledPayload(const PooledPayload&) = delete;
  PooledPayload& operator=(const PooledPayload&) = delete;
  ~PooledPayload() {
    for (auto& b : payload.blocks) BlockPool::process().give(std::move(b.values));
  }
};
}  // namespace

std::shared_ptr<Payload> make_pooled_payload() {
  auto holder = std::make_shared<PooledPayload>();
  return std::shared_ptr<Payload>(holder, &holder->payload);
}

}  // namespace geotrain
