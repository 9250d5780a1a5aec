// The registry of optimisers (the global server's, and a worker's own under
// policies that step locally): each reads its parameters from the scenario's
// `optimizer` object and builds the Optimizer.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "core/base/registry.h"
#include "core/json/json_reader.h"
#include "core/optim/optimizer.h"

namespace geotrain {

struct OptimizerInfo {
  ComponentDoc doc;
  std::function<void(JsonReader& r, OptimizerSpec& o)> read;  // its own keys, besides "kind"
  std::function<std::unique_ptr<Optimizer>(const OptimizerSpec& o)> make;
};

const std::vector<OptimizerInfo>& optimizer_registry();

}  // namespace geotrain
