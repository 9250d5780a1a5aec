// A workload profile read from a file: your own model's traffic and compute.
//   {"name": "my-cnn", "description": "...", "forward_flops_per_sample": 8.2e9,
//    "tensors": [{"name": "conv1.weight", "shape": [64, 3, 7, 7], "dtype": "float32"}, ...]}
// Schema: scenarios/profile.schema.json; `geotrain profile MODEL.onnx` writes one
// from an ONNX model (cli/profile_command.cc). The simulation moves fp32 blocks, so a tensor of another dtype is
// carried as the fp32 elements of the same bytes (ceil(bytes / 4)); training
// costs three forward passes, as for the built-in profiles.
#pragma once
#include <nlohmann/json.hpp>
#include <string>

#include "core/learners/workload_profiles.h"

namespace geotrain {

// Throws ConfigError naming `path`, the JSON path and what was expected.
WorkloadProfile load_profile_file(const std::string& path);
// The same from a parsed profile (`path` names it in errors): what `geotrain
// profile` checks a profile against before writing it.
WorkloadProfile profile_from_json(const nlohmann::json& j, const std::string& path);

// Bytes per element of an ONNX/NumPy dtype name; 0 when unknown.
int dtype_bytes(const std::string& dtype);

}  // namespace geotrain
