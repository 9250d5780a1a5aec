#include "core/models/model_registry.h"

#include "core/models/mlp.h"
#include "core/models/profile_model.h"

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
      {{"profile",
        "a workload profile: a published model's tensor sizes and compute, for traffic and time studies "
        "(accuracy not modelled; simulation only)",
        {{"profile", "required", "resnet50 | vgg16 | bert-base | gpt2-small | mlp-quickstart | softmax-fashion"}}},
       [](JsonReader& r, ModelSpec& m) {
         std::vector<std::string> names;
         for (const auto& p : workload_profiles()) names.push_back(p.name);
         m.profile = r.string("profile", std::nullopt, names);
       },
       [](const ModelSpec& m, int, int classes) {
         return std::make_unique<ProfileModel>(*find_profile(m.profile), classes);
       }},
  };
  return registry;
}

}  // namespace geotrain
