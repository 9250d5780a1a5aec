#include "core/base/numeric_environment.h"

#include <Eigen/Core>
#include <mutex>

namespace geotrain {

void pin_numeric_environment() {
  // Eigen keeps the sizes in unguarded statics that runs on other threads read
  // as they multiply: written only when they differ (once per process, unless
  // something else set them), never rewritten under a running product.
  static std::mutex mu;
  const std::lock_guard<std::mutex> lock(mu);
  if (Eigen::l1CacheSize() == kPinnedL1Bytes && Eigen::l2CacheSize() == kPinnedL2Bytes &&
      Eigen::l3CacheSize() == kPinnedL3Bytes)
    return;
  Eigen::setCpuCacheSizes(kPinnedL1Bytes, kPinnedL2Bytes, kPinnedL3Bytes);
}

}  // namespace geotrain
