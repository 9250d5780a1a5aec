#include "core/allocator_settings.h"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace geotrain {

void pin_allocator_thresholds() {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

}  // namespace geotrain
