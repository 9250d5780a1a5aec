// Gaia (Hsieh et al., NSDI'17; REFERENCE.md section 9): Approximate
// Synchronous Parallel across DCs. Inside a DC workers are synchronous (each
// step's model change is averaged into the DC's own model by its local
// server, which never waits for the WAN). Across DCs only significant change
// travels: an entry of the DC's accumulated unsent change u crosses when
// |u_i| > t * |w_i| (w: the last global model the DC pulled), with the
// threshold t = threshold / sqrt(1 + round / decay_rounds) lowered over time;
// the rest keeps accumulating in the DC's model. The global server applies
// each DC's significant change as it arrives and serves each DC only the
// entries that changed since its last pull. The selective barrier: when a
// DC's significant change is applied, every other DC holds its workers at its
// next local round until it has pulled it. The mirror clock: a DC's workers
// wait once it has run `mirror_clock` local rounds past its last completed
// sync, bounding how far its model runs from the others'. Under hips only.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo gaia_policy();

}  // namespace geotrain
