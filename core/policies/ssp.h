// ssp: stale synchronous parallel (Ho et al., 2013), staleness bound s. Like
// asp, the server applies each push as it arrives and a worker does not wait
// for the model after a push; but a worker that has completed c steps starts
// another only while c - (the slowest worker's clock) <= s, the clock being the
// steps the server has applied from that worker, which the server announces
// (kRelease) whenever it advances. s = 0 is lock-step without a barrier round;
// a large s tends to asp. Flat only: the bound is per worker, and under hips
// the global server sees a DC's summed pushes, not its workers' clocks.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo ssp_policy();

}  // namespace geotrain
