// MixedSync (GeoMX): synchronous inside each DC, asynchronous across DCs.
// A local server waits for all its live workers' gradients, as under bsp; the
// global server applies each DC's sum as it arrives, as under asp, and the
// DC's workers wait for the model that comes back. Optional DC-ASGD delay
// compensation (lambda > 0): a DC's mean gradient g, computed on the model w_bak
// it last pulled, is applied as g + lambda * g (.) g (.) (w - w_bak) (Zheng et
// al., ICML 2017; REFERENCE.md sections 1 and 9). Under hips only: the two
// tiers are what it tells apart.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo mixed_sync_policy();

}  // namespace geotrain
