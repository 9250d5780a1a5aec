// `random_k`: k = ceil(ratio x n) entries chosen uniformly at random (seeded
// per sender), sent as `sparse` blocks, with error feedback: what is not sent
// is added to the next encode of the same key (Stich et al., NeurIPS 2018).
#pragma once
#include <memory>

#include "core/codec/encoder.h"

namespace geotrain {

std::unique_ptr<Encoder> make_random_k_encoder(double ratio, std::uint64_t seed);

}  // namespace geotrain
