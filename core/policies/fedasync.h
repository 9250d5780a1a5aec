// FedAsync (Xie et al., 2019), the asynchronous federated baseline: each
// worker trains H local steps from the model it last pulled, pushes its model
// change and waits only for its own new model; the global server applies each
// change as it arrives, weighted by its staleness t (rounds applied since the
// worker's model): w += alpha * (1 + t)^(-a) * change (the paper's polynomial
// s(t); we apply the change rather than mixing w with the worker's model, which
// differs by alpha * s(t) * (w_then - w)). Under hips a local server forwards
// what its workers push, one push in flight (as asp).
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo fedasync_policy();

}  // namespace geotrain
