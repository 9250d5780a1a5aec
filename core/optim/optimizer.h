// Optimisers applied by the server that owns the parameters. State (momentum,
// Adam moments) is keyed by block position and lives in the optimiser object.
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/payload/params.h"

namespace geotrain {

struct OptimizerSpec {
  std::string kind = "sgd";  // sgd | momentum | adam
  double lr = 0.01;
  double momentum = 0.9;                          // momentum
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;  // adam
  double weight_decay = 0;                        // L2, added to the gradient
  // Linear decay: the rate falls from lr to lr * decay_to over the first
  // decay_steps applications, then stays (decay_steps 0: constant lr).
  double decay_to = 1;
  std::int64_t decay_steps = 0;
};

// The learning rate of the step-th application (0-based).
double lr_at(const OptimizerSpec& spec, std::int64_t step);

// Everything an optimiser carries between steps (for checkpoints).
struct OptimizerState {
  std::vector<ParamSet> slots;  // momentum: {v}; adam: {m, v}; sgd: {}
  std::int64_t steps = 0;
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // params -= step(grad). REQUIRES: same layout on every call.
  virtual void apply(ParamSet& params, const ParamSet& grad) = 0;
  // apply() in two halves, where the step does not read the parameters
  // (prepares_steps()): prepare(grad) advances the state and computes the
  // step, apply_prepared(params) subtracts it, to the same bits as apply().
  // A worker does the first on its compute thread while its model may still
  // change (a pull arriving mid-step), and the second, one pass, when it may not.
  virtual bool prepares_steps() const { return false; }
  // REQUIRES: prepares_steps(); then one apply_prepared() before the next prepare().
  virtual void prepare(const ParamSet& /*grad*/) { throw std::logic_error("this optimiser cannot prepare a step"); }
  virtual void apply_prepared(ParamSet& /*params*/) { throw std::logic_error("this optimiser cannot prepare a step"); }
  virtual OptimizerState state() const = 0;
  virtual void restore(const OptimizerState& s) = 0;
};

// The optimiser `spec.kind` names, from core/optim/optimizer_registry.
// Throws std::invalid_argument on an unknown kind.
std::unique_ptr<Optimizer> make_optimizer(const OptimizerSpec& spec);
// The factories the registry lists.
std::unique_ptr<Optimizer> make_sgd(const OptimizerSpec& spec);
std::unique_ptr<Optimizer> make_momentum(const OptimizerSpec& spec);
std::unique_ptr<Optimizer> make_adam(const OptimizerSpec& spec);

}  // namespace geotrain
