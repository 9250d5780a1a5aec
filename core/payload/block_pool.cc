#include "core/payload/block_pool.h"

namespace geotrain {

BlockPool& BlockPool::process() {
  static BlockPool pool;
  return pool;
}

Eigen::VectorXf BlockPool::take(std::size_t n) {
  if (std::optional<Eigen::VectorXf> v = kept_.take(n)) return std::move(*v);
  return Eigen::VectorXf(Eigen::Index(n));  // uninitialised
}

void BlockPool::give(Eigen::VectorXf&& v) {
  const std::size_t n = std::size_t(v.size());
  kept_.give(std::move(v), n);  // what it does not keep is freed here
}

std::size_t BlockPool::kept() const { return kept_.kept(); }

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
