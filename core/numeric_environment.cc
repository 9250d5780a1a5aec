#include "core/numeric_environment.h"

#include <Eigen/Core>

namespace geotrain {

void pin_numeric_environment() { Eigen::setCpuCacheSizes(kPinnedL1Bytes, kPinnedL2Bytes, kPinnedL3Bytes); }

}  // namespace geotrain
