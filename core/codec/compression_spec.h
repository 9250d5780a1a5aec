// The scenario's `compression`: a codec per stream.
#pragma once
#include <cstdint>

#include "core/codec/codec_registry.h"

namespace geotrain {

// Which codec each stream uses (core/codec/codec_registry.h): pushes and pull
// responses, inside a DC (lan) and across the WAN (wan).
struct CompressionSpec {
  CodecChoice lan_push, lan_pull, wan_push, wan_pull;
  std::uint64_t dense_below = 200000;  // smaller tensors travel dense (mpq: fp16)
  bool any() const {
    for (const CodecChoice* c : {&lan_push, &lan_pull, &wan_push, &wan_pull})
      if (c->kind != "none") return true;
    return false;
  }
};

}  // namespace geotrain
