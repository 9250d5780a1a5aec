// A model's parameters as a file: `geotrain sim --save-model` writes the final
// model, and learners read shipped models (the GAN's feature classifier).
// Format (little-endian): "GTPARAM1", u32 blocks, then per block u32 key,
// u64 entries and the entries as f32.
#pragma once
#include <string>

#include "core/payload/params.h"

namespace geotrain {

// Throws std::runtime_error naming the file.
void write_params_file(const std::string& path, const ParamSet& p);
// Throws std::runtime_error naming the file (missing, truncated, not this format).
ParamSet read_params_file(const std::string& path);

}  // namespace geotrain
