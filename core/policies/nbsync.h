// NBSync (REFERENCE.md section 4; the paper's exact algorithm is not public, so
// this is our reading): ESync's balanced local rounds, but a worker does not
// wait while its round's aggregate travels. It pushes its local round's model
// change, keeps stepping from a snapshot w_snap, and when the new global model
// w_g arrives merges w = w_g + (w - w_snap). Pipeline depth 1: a worker that is
// told to push while its previous push is still in flight keeps stepping, and
// pushes as soon as the model for it is merged; so no worker is ever more than
// one round ahead of the global model, and the state server counts the rounds
// a worker is ahead when it balances (esync_push_now). A worker whose last
// sync took less than eps waits for the model instead: the sync is its push's
// time to come back merged less the state server's slack (the wait for the
// slowest worker's compute, which esync tolerates anyway). Stepping on then
// would hide little and compute on a model about to be replaced. So on a fast
// WAN nbsync is esync step for step; on a thin one it hides the sync.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo nbsync_policy();

}  // namespace geotrain
