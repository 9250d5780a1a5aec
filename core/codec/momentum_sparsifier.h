// The encoder BSC and DGC share: momentum correction (u = m u + g, v = v + u),
// about `density` x n entries of v with the largest |v| sent as `sparse`
// (a threshold sampled as in topk_select.h), u and v zeroed where sent (momentum-factor masking), the rest
// kept (error feedback). DGC adds local gradient clipping and a warm-up in
// which the density falls from 1 towards its final value.
#pragma once
#include <memory>

#include "core/codec/encoder.h"

namespace geotrain {

struct SparsifierOptions {
  double density = 0.01;  // final fraction of entries sent per encode
  double momentum = 0.9;  // m
  double clip_norm = 0;   // > 0: g is scaled down to this L2 norm first (DGC's local clipping)
  int warmup_epochs = 0;  // W: density at encode t is density^((t / epoch_encodes + 1) / (W + 1)) ...
  int epoch_encodes = 1;  // ... until t reaches W x epoch_encodes (DGC's exponential warm-up)
};

std::unique_ptr<Encoder> make_momentum_sparsifier(const SparsifierOptions& o, std::uint64_t seed);

}  // namespace geotrain
