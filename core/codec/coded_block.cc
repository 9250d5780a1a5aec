#include "core/codec/coded_block.h"

#include <mutex>
#include <new>

namespace geotrain {
namespace {

constexpr std::size_t kMinRecycled = 1 << 20;  // smaller ones: malloc keeps them warm itself
constexpr std::size_t kMaxKept = 8;

struct Recycler {
  std::mutex mu;
  std::vector<std::pair<void*, std::size_t>> kept;
  ~Recycler() {
    for (auto& [p, n] : kept) ::operator delete(p);
  }
};

Recycler& recycler() {
  static Recycler r;
  return r;
}

}  // namespace

void* take_byte_buffer(std::size_t n) {
  if (n >= kMinRecycled) {
    Recycler& r = recycler();
    std::lock_guard<std::mutex> lock(r.mu);
    for (auto it = r.kept.rbegin(); it != r.kept.rend(); ++it)
      if (it->second == n) {
        void* p = it->first;
        r.kept.erase(std::next(it).base());
        return p;
      }
  }
  return ::operator new(n);
}

void give_byte_buffer(void* p, std::size_t n) noexcept {
  if (n >= kMinRecycled) {
    Recycler& r = recycler();
    std::lock_guard<std::mutex> lock(r.mu);
    if (r.kept.size() == kMaxKept) {
      ::operator delete(r.kept.front().first);
      r.kept.erase(r.kept.begin());
    }
    r.kept.emplace_back(p, n);
    return;
  }
  ::operator delete(p);
}

}  // namespace geotrain
