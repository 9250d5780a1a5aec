#include "core/optim/optimizer_registry.h"

#include <stdexcept>

namespace geotrain {
namespace {

void read_common(JsonReader& r, OptimizerSpec& o, double default_lr) {
  o.lr = r.number("lr", default_lr, 1e-12, 1e3);
  o.weight_decay = r.number("weight_decay", 0.0, 0, 1);
  o.decay_to = r.number("decay_to", 1.0, 0, 1);
  o.decay_steps = r.integer("decay_steps", 0, 0, 1000000000);
}

// Every optimiser's parameters: lr (its own default), then its own, then the
// ones read_common reads for all of them.
std::vector<ParamDoc> params(const char* default_lr, std::vector<ParamDoc> own) {
  std::vector<ParamDoc> all = {{"lr", default_lr, "learning rate"}};
  all.insert(all.end(), own.begin(), own.end());
  all.insert(all.end(),
             {{"weight_decay", "0", "L2 penalty added to the gradient"},
              {"decay_to", "1", "final rate as a fraction of lr (linear decay)"},
              {"decay_steps", "0", "applications over which the rate falls to lr x decay_to (0: constant lr)"}});
  return all;
}

}  // namespace

const std::vector<OptimizerInfo>& optimizer_registry() {
  static const std::vector<OptimizerInfo> registry = {
      {{"sgd", "plain stochastic gradient descent", params("0.01", {})},
       [](JsonReader& r, OptimizerSpec& o) { read_common(r, o, 0.01); },
       make_sgd},
      {{"momentum", "SGD with heavy-ball momentum", params("0.01", {{"momentum", "0.9", "momentum factor"}})},
       [](JsonReader& r, OptimizerSpec& o) {
         read_common(r, o, 0.01);
         o.momentum = r.number("momentum", 0.9, 0, 0.9999);
       },
       make_momentum},
      {{"adam", "Adam (bias-corrected first and second moments)",
        params("0.001", {{"beta1", "0.9", "first-moment decay"},
                         {"beta2", "0.999", "second-moment decay"},
                         {"eps", "1e-8", "denominator floor"}})},
       [](JsonReader& r, OptimizerSpec& o) {
         read_common(r, o, 0.001);
         o.beta1 = r.number("beta1", 0.9, 0, 0.9999);
         o.beta2 = r.number("beta2", 0.999, 0, 0.999999);
         o.eps = r.positive("eps", 1e-8);
       },
       make_adam},
  };
  return registry;
}

std::unique_ptr<Optimizer> make_optimizer(const OptimizerSpec& spec) {
  if (const OptimizerInfo* o = find_entry(optimizer_registry(), spec.kind)) return o->make(spec);
  throw std::invalid_argument("unknown optimizer '" + spec.kind + "'");
}

}  // namespace geotrain
