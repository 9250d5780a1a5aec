#include "core/allocator_settings.h"

#include <cstdlib>  // defines __GLIBC__ on glibc

#if defined(__GLIBC__)
#include <malloc.h>
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

}  // namespace geotrain
