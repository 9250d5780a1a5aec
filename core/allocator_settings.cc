#include "core/allocator_settings.h"

#include <cstdint>
#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#if defined(__GLIBC__) && defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace geotrain {

bool pin_allocator_thresholds() {
#if defined(__GLIBC__)
  return mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1 && mallopt(M_TRIM_THRESHOLD, 128 << 20) == 1 &&
         mallopt(M_MXFAST, 0) == 1;
#else
  return false;
#endif
}

std::size_t advise_heap_huge_pages() {
#if defined(__GLIBC__) && defined(__linux__)
  constexpr std::uintptr_t kHugePage = std::uintptr_t(2) << 20;
  if (mallopt(M_TOP_PAD, 1 << 30) != 1) return 0;
  // A probe larger than the heap's free top makes it grow by the pad now. It
  // must come from the heap whatever its size, so mapping is off meanwhile
  // (65,536 is glibc's default). volatile: a compiler may drop an unused malloc.
  mallopt(M_MMAP_MAX, 0);
  void* volatile probe = malloc(mallinfo2().keepcost + (std::size_t(4) << 20));
  free(probe);
  mallopt(M_MMAP_MAX, 65536);
  // The free top now runs up to the break: advise all of it.
  const auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  const std::uintptr_t from = (end - mallinfo2().keepcost + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t to = end & ~(kHugePage - 1);
  if (to <= from) return 0;
  if (madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE) != 0) return 0;
  return to - from;
#else
  return 0;
#endif
}

}  // namespace geotrain
