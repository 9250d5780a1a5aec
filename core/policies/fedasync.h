// FedAsync (Xie et al., 2019), the asynchronous federated baseline: each
// worker trains H local steps from the model it last pulled, pushes its model
// and waits only for its own new model; the global server mixes each model in
// as it arrives, weighted by its staleness t (rounds applied since the
// worker's model): w = (1 - g) w + g w_i with g = alpha * (1 + t)^(-a) (the
// paper's polynomial s(t)). Under hips a local server forwards what its
// workers push, one push in flight (as asp), the mean of those it summed.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo fedasync_policy();

}  // namespace geotrain
