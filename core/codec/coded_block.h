// An encoded parameter block: what a codec makes of one tensor. It names the
// codec that wrote it (as leveldb stores a filter's Name() beside its data), so
// a receiver decodes it with the right one or rejects it: never garbage.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

namespace geotrain {

// Large byte buffers are recycled within the process (at most a few, of the
// sizes last freed): a fresh one of tens of megabytes costs a page fault per
// 4 KiB, as much as encoding into it. Thread-safe.
void* take_byte_buffer(std::size_t n);
void give_byte_buffer(void* p, std::size_t n) noexcept;

// An allocator whose resize() leaves new bytes uninitialised: an encoder
// writes every byte it allocates, and zero-filling tens of megabytes first
// would cost as much as encoding them. Large buffers come from the recycler.
template <class T>
struct DefaultInitAllocator : std::allocator<T> {
  template <class U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <class U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(take_byte_buffer(n * sizeof(T))); }
  void deallocate(T* p, std::size_t n) noexcept { give_byte_buffer(p, n * sizeof(T)); }
  template <class U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <class U, class... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};
using Bytes = std::vector<std::uint8_t, DefaultInitAllocator<std::uint8_t>>;

struct CodedBlock {
  std::uint32_t key = 0;
  std::uint32_t n = 0;     // the dense tensor's length
  std::uint8_t codec = 0;  // CodecInfo::id of the codec that wrote `bytes`
  Bytes bytes;             // resize() leaves them uninitialised: writers fill every byte
  // A workload profile's stand-in (ParamBlock::stands_for): the real tensor's
  // entries, and what its encoding costs by the codec's wire-size rule
  // (CodecInfo::wire_bytes); 0: a real block, charged bytes.size().
  std::uint64_t stands_for = 0, stands_for_bytes = 0;
};
// A block's header on the wire (core/payload/wire.h): a codec compares them to choose
// between sparse and dense.
constexpr std::uint64_t kBlockHeaderBytes = 4 + 4;          // a dense block: key, length
constexpr std::uint64_t kCodedHeaderBytes = 4 + 4 + 1 + 4;  // a coded block: key, length, codec, byte count
// What a coded block costs on the wire, its header aside.
inline std::uint64_t wire_bytes(const CodedBlock& c) {
  return c.stands_for_bytes ? c.stands_for_bytes : std::uint64_t(c.bytes.size());
}

// Malformed encoded bytes: wrong codec id, lengths or indices that lie.
class CodecError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace geotrain
