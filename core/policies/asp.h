// asp: asynchronous parallel. The server applies each push as it arrives (a
// push against any round it has reached counts: its staleness is the rounds
// applied since the sender's model), and a worker never waits: it steps on with
// the model it has and installs the newer one whenever it arrives. Under hips a
// local server pushes each worker's update up as it comes, and sums those that
// arrive while its previous push is in flight into its next one (so a DC has
// one push on the WAN at a time).
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo asp_policy();

}  // namespace geotrain
