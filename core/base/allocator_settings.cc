#include "core/base/allocator_settings.h"

#if defined(GEOTRAIN_MIMALLOC)
#include <mimalloc.h>
#endif

namespace geotrain {

bool configure_allocator() {
#if defined(GEOTRAIN_MIMALLOC)
  mi_option_enable(mi_option_large_os_pages);
  return true;
#else
  return false;
#endif
}

bool allocated_by_mimalloc(const void* p) {
#if defined(GEOTRAIN_MIMALLOC)
  return mi_is_in_heap_region(p);
#else
  (void)p;
  return false;
#endif
}

}  // namespace geotrain
