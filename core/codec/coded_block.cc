#include "core/codec/coded_block.h"

#include <new>

#include "core/base/recycler.h"

namespace geotrain {
namespace {

// Raw byte buffers from operator new; smaller than 1 MiB, malloc keeps them warm itself.
struct ByteRecycler : Recycler<void*> {
  ByteRecycler() : Recycler<void*>(1 << 20) {}
  ~ByteRecycler() {
    drain([](void* p) { ::operator delete(p); });
  }
};

ByteRecycler& recycler() {
  static ByteRecycler r;
  return r;
}

}  // namespace

void* take_byte_buffer(std::size_t n) {
  if (std::optional<void*> p = recycler().take(n)) return *p;
  return ::operator new(n);
}

void give_byte_buffer(void* p, std::size_t n) noexcept {
  if (std::optional<void*> freed = recycler().give(p, n)) ::operator delete(*freed);
}

}  // namespace geotrain
