// Recycled storage for large tensors decoded from a network. A real-mode role
// decodes every incoming tensor into a new buffer and drops the previous
// round's; glibc serves blocks over 32 MiB with a fresh mmap and unmaps them on
// free, so every page of every large tensor faults again each round (measured
// on the VMs we run on: ~360 MB/s, slower than loopback TCP). Handing a dropped
// buffer to the next tensor of the same size keeps its pages mapped.
#pragma once
#include <Eigen/Core>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/base/recycler.h"
#include "core/payload/message.h"

namespace geotrain {

// Tensor storage through the process's Recycler (core/base/recycler.h).
class BlockPool {
 public:
  static constexpr std::size_t kMinFloats = 256 * 1024;  // smaller blocks: malloc's own bins do well
  static constexpr std::size_t kMaxKept = Recycler<Eigen::VectorXf>::kMaxKept;  // beyond that the oldest is freed

  static BlockPool& process();  // the pool shared by every decoder of this process

  // A vector of n floats with unspecified contents: a kept buffer of exactly n
  // floats when there is one, else a new one.
  Eigen::VectorXf take(std::size_t n);
  // Keeps v's storage for a later take() (if it is large enough to matter).
  void give(Eigen::VectorXf&& v);
  std::size_t kept() const;

 private:
  Recycler<Eigen::VectorXf> kept_{kMinFloats};
};

// A Payload whose blocks return to BlockPool::process() when its last
// reference is dropped.
std::shared_ptr<Payload> make_pooled_payload();

}  // namespace geotrain
