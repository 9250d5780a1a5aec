// Large buffers kept for reuse, by exact size: the one recycler of the process's
// tensor storage (core/payload/block_pool.h) and encoded bytes
// (core/codec/coded_block.h). A fresh buffer of tens of megabytes costs a page
// fault per 4 KiB (glibc and mimalloc hand large blocks back to the kernel),
// as much as filling it; a kept one is still mapped. It holds storage only,
// never contents anyone reads (a taken buffer's contents are unspecified), so
// runs sharing a process share it safely. Thread-safe.
#pragma once
#include <cstddef>
#include <iterator>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace geotrain {

template <class Buffer>
class Recycler {
 public:
  static constexpr std::size_t kMaxKept = 8;  // beyond that the oldest goes

  // Buffers smaller than `min_size` are not kept: the allocator's own bins keep them warm.
  explicit Recycler(std::size_t min_size) : min_size_(min_size) {}
  Recycler(const Recycler&) = delete;
  Recycler& operator=(const Recycler&) = delete;

  // The most recently kept buffer of exactly `size`, if any.
  std::optional<Buffer> take(std::size_t size) {
    if (size < min_size_) return std::nullopt;
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = kept_.rbegin(); it != kept_.rend(); ++it)
      if (it->first == size) {
        Buffer b = std::move(it->second);
        kept_.erase(std::next(it).base());
        return b;
      }
    return std::nullopt;
  }
  // Keeps `b` (of `size`) for a later take(). Returns what the caller must free:
  // `b` itself when it is too small to keep, the oldest kept one when full, else nothing.
  std::optional<Buffer> give(Buffer b, std::size_t size) {
    if (size < min_size_) return std::optional<Buffer>(std::move(b));
    std::optional<Buffer> evicted;
    std::lock_guard<std::mutex> lock(mu_);
    if (kept_.size() == kMaxKept) {
      evicted = std::move(kept_.front().second);
      kept_.erase(kept_.begin());
    }
    kept_.emplace_back(size, std::move(b));
    return evicted;
  }
  std::size_t kept() const {
    std::lock_guard<std::mutex> lock(mu_);
    return kept_.size();
  }
  // Hands every kept buffer to `free` (for storage that does not free itself).
  template <class Free>
  void drain(Free free) {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& k : kept_) free(k.second);
    kept_.clear();
  }

 private:
  const std::size_t min_size_;
  mutable std::mutex mu_;
  std::vector<std::pair<std::size_t, Buffer>> kept_;  // oldest first
};

}  // namespace geotrain
