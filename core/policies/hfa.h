// HFA, hierarchical frequency aggregation (REFERENCE.md section 2, HierFAVG
// style): each worker takes K1 local steps with its own optimiser, then pushes
// its model change; the local server averages its DC's changes into the DC's
// model K2 - 1 times out of K2, and every K2-th pushes the DC's change since
// the last global model (its milestone) across the WAN, where the global
// server averages the DCs' changes (weighted by workers). One WAN sync per
// K1 * K2 worker steps; GeoMX's defaults K1 = 20, K2 = 10. Under hips only:
// the local tier is what makes it hierarchical.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo hfa_policy();

}  // namespace geotrain
