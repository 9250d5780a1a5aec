// The scenario's `p3` section: what a P3Node (p3_node.h) runs with.
#pragma once
#include <cstdint>

namespace geotrain {

// P3, priority-based parameter propagation (core/layers/p3, REFERENCE.md section 8):
// pushes and pulls sliced, first layers first, the next step's forward pass
// overlapping the rest.
struct P3Spec {
  std::uint64_t slice_elements = 0;   // 0: off; else the most entries one slice carries
  double forward_fraction = 1.0 / 3;  // the forward pass's share of a step (backward is about twice it)
  bool on() const { return slice_elements > 0; }
};

}  // namespace geotrain
