#include "core/learners/fixed_blocking.h"

#include <Eigen/Core>

namespace geotrain {

void use_fixed_matrix_blocking() {
  constexpr std::ptrdiff_t kL1 = 32 * 1024, kL2 = 1024 * 1024, kL3 = 512 * 1024 * 1024;
  Eigen::setCpuCacheSizes(kL1, kL2, kL3);
}

}  // namespace geotrain
