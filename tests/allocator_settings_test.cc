// The allocator settings each binary makes at start-up (core/allocator_settings.h).
#include "core/allocator_settings.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace geotrain {
namespace {

TEST(AllocatorSettings, TakeEffectOnGlibc) {
#if defined(__GLIBC__)
  EXPECT_TRUE(pin_allocator_thresholds());  // a build that compiled the settings out would say false
#else
  EXPECT_FALSE(pin_allocator_thresholds());
#endif
}

}  // namespace
}  // namespace geotrain
