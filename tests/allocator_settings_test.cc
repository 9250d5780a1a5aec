// The allocator settings each binary makes at start-up (core/allocator_settings.h).
#include "core/allocator_settings.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#if defined(__linux__)
#include <unistd.h>
#endif

namespace geotrain {
namespace {

TEST(AllocatorSettings, TakeEffectOnGlibc) {
#if defined(__GLIBC__)
  EXPECT_TRUE(pin_allocator_thresholds());  // a build that compiled the settings out would say false
#else
  EXPECT_FALSE(pin_allocator_thresholds());
#endif
}

// The VmFlags line of the mapping that holds `p`, from /proc/self/smaps
// ("" if none is found).
std::string mapping_flags(const void* p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = lo <= at && at < hi;
    } else if (inside && line.rfind("VmFlags:", 0) == 0) {
      return line;
    }
  }
  return "";
}

TEST(AllocatorSettings, TheHeapAsksForHugePages) {
#if defined(__GLIBC__) && defined(__linux__)
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"))
    GTEST_SKIP() << "this kernel was built without transparent huge pages: nothing to ask for";
  ASSERT_TRUE(pin_allocator_thresholds());
  EXPECT_GE(advise_heap_huge_pages(), std::size_t(512) << 20);
  // The heap's free top, from which it serves what its free lists cannot, is
  // in an advised mapping.
  const char* end = static_cast<const char*>(sbrk(0));
  const std::string flags = mapping_flags(end - (std::size_t(4) << 20));
  EXPECT_NE(flags.find(" hg"), std::string::npos) << "mapping flags: " << flags;
#else
  EXPECT_EQ(advise_heap_huge_pages(), 0u);
#endif
}

}  // namespace
}  // namespace geotrain
