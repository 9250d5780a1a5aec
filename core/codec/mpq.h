// `mpq`, mixed-precision quantisation (GeoMX; REFERENCE.md section 5): tensors
// below the stream's dense_below travel as fp16; large ones as fp32 inside a DC
// and as bsc across the WAN.
#pragma once
#include <memory>

#include "core/codec/codec_registry.h"

namespace geotrain {

std::unique_ptr<Encoder> make_mpq_encoder(const EncoderContext& c, double rho, double momentum);

}  // namespace geotrain
