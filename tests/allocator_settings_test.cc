// The allocator every binary links and sets up at start-up (core/base/allocator_settings.h).
#include "core/base/allocator_settings.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "core/payload/params.h"

namespace geotrain {
namespace {

// malloc, operator new and the standard containers all allocate from
// mimalloc: a link that lost the override (a library order, --as-needed)
// would silently give glibc's allocator back.
TEST(AllocatorSettings, EveryAllocationComesFromMimalloc) {
  ASSERT_TRUE(configure_allocator());
  std::unique_ptr<void, decltype(&std::free)> c(std::malloc(100), &std::free);
  EXPECT_TRUE(allocated_by_mimalloc(c.get()));
  auto block_list = std::make_unique<char[]>(161 * sizeof(ParamBlock));  // a ResNet-50 message's block headers
  EXPECT_TRUE(allocated_by_mimalloc(block_list.get()));
  std::vector<float> big(std::size_t(8) << 20);
  EXPECT_TRUE(allocated_by_mimalloc(big.data()));
  int on_stack = 0;
  EXPECT_FALSE(allocated_by_mimalloc(&on_stack));  // the check can say no
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

TEST(AllocatorSettings, NewMemoryAsksForHugePages) {
#if defined(__linux__)
  if (!std::ifstream("/sys/kernel/mm/transparent_hugepage/enabled"))
    GTEST_SKIP() << "this kernel was built without transparent huge pages: nothing to ask for";
  ASSERT_TRUE(configure_allocator());
  // Larger than any segment the binary made before: mapped now, under the setting.
  std::vector<float> big(std::size_t(16) << 20);
  std::memset(big.data(), 1, big.size() * sizeof(float));
  const std::string flags = mapping_flags(big.data() + big.size() / 2);
  EXPECT_NE(flags.find(" hg"), std::string::npos) << "mapping flags: " << flags;
#else
  GTEST_SKIP() << "transparent huge pages are Linux's";
#endif
}

}  // namespace
}  // namespace geotrain
