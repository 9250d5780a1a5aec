// asp: asynchronous parallel. The server applies each push as it arrives (a
// push against any round it has reached counts: its staleness is the rounds
// applied since the sender's model), and a worker never waits: it steps on with
// the model it has and installs the newer one whenever it arrives. Flat only:
// under hips, local servers would have to forward every worker's push, which
// is flat with an extra hop.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo asp_policy();

}  // namespace geotrain
