// NBSync (REFERENCE.md section 4; the paper's exact algorithm is not public, so
// this is our reading): ESync's balanced local rounds, but a worker does not
// wait while its round's aggregate travels. It pushes its local round's model
// change, keeps stepping from a snapshot w_snap, and when the new global model
// w_g arrives merges w = w_g + (w - w_snap). Pipeline depth 1: a worker that is
// told to push while its previous push is still in flight keeps stepping, and
// pushes as soon as the model for it is merged; so no worker is ever more than
// one round ahead of the global model. A worker whose previous push came back
// merged in less than eps waits for the model instead (a step begun before it
// would be computed on a model about to be replaced, to save a wait shorter
// than the slack esync tolerates anyway): on a fast WAN the slowest worker
// computes every step on the newest model, as under esync.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo nbsync_policy();

}  // namespace geotrain
