// FedAvg (McMahan et al., 2017), the federated baseline: each worker trains
// E local epochs over its shard (or H steps, when h > 0) with its own
// optimiser from the global model, then pushes its model change; the servers
// average the changes weighted by each worker's number of samples and apply
// w += global_lr * mean. Synchronous rounds, every worker each round.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo fedavg_policy();

}  // namespace geotrain
