#include "core/models/model_registry.h"

#include "core/models/mlp.h"

namespace geotrain {

const std::vector<ModelInfo>& model_registry() {
  static const std::vector<ModelInfo> registry = {
      {{"mlp",
        "multi-layer perceptron, ReLU hidden layers, softmax output",
        {{"hidden", "required", "hidden layer sizes, e.g. [128]"}}},
       [](JsonReader& r, ModelSpec& m) {
         for (auto h : r.integers("hidden", 1, 1 << 16)) m.hidden.push_back(int(h));
         if (m.hidden.empty()) r.fail("hidden", "mlp needs at least one hidden layer size, e.g. [128]");
       },
       [](const ModelSpec& m, int features, int classes) {
         return std::make_unique<Mlp>(features, m.hidden, classes);
       }},
      {{"softmax", "multinomial logistic regression", {}},
       [](JsonReader&, ModelSpec&) {},
       [](const ModelSpec&, int features, int classes) {
         return std::make_unique<Mlp>(features, std::vector<int>{}, classes);
       }},
  };
  return registry;
}

}  // namespace geotrain
