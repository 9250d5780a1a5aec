// The scenario's `dgt` section: what a DgtNode (dgt_node.h) runs with.
#pragma once

namespace geotrain {

// DGT, differential gradient transmission of WAN pushes (core/layers/dgt,
// REFERENCE.md section 6): each push in blocks ranked by contribution, the top
// K fraction reliable, the rest best-effort, zero-filled where lost.
struct DgtSpec {
  int mode = 0;                // 0: off; 1: unimportant blocks over UDP; 2: all over TCP, lower priority; 3: 2 + 4-bit
  double k = 0.5;              // K0: fraction of blocks sent reliably
  double k_min = 0.2;          // adaptive K never goes below
  bool adaptive = true;        // K_t = max(K0 loss_t / loss_0, K_min), loss = the push's training loss
  int channels = 3;            // C best-effort channels, of descending priority
  double alpha = 0.3;          // contribution EMA: c = alpha c_prev + (1 - alpha) mean|g_block|
  int block_bytes = 4096;      // fp32 entries per block x 4
  double deadline_ms = 50;     // the receiver assembles this long after the last reliable part
  double rate_fraction = 0.9;  // mode 1: UDP paced at this fraction of the path's WAN bandwidth
  bool on() const { return mode != 0; }
};

}  // namespace geotrain
