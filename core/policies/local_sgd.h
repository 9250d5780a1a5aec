// local_sgd: each worker takes H local steps with its own optimiser (the
// scenario's), then pushes its model's change since the last global model; the
// global server averages the changes and applies w += global_lr * mean, then
// every worker starts again from the new global model (synchronous rounds, as
// bsp). Under hips the local servers sum their workers' changes, so only one
// change per DC crosses the WAN per H steps.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo local_sgd_policy();

}  // namespace geotrain
