// The registry of trainable models: each reads its parameters from the
// scenario's `model` object and builds the Model for a dataset's shape.
#pragma once
#include <functional>
#include <memory>
#include <vector>

#include "core/config/json_reader.h"
#include "core/config/scenario.h"
#include "core/models/model.h"
#include "core/registry.h"

namespace geotrain {

struct ModelInfo {
  ComponentDoc doc;
  std::function<void(JsonReader& r, ModelSpec& m)> read;  // its own keys, besides "kind"
  std::function<std::unique_ptr<Model>(const ModelSpec& m, int features, int classes)> make;
};

const std::vector<ModelInfo>& model_registry();

}  // namespace geotrain
