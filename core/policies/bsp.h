// bsp: bulk synchronous parallel (fully synchronous aggregation, "fsa", is its
// alias). A server's round completes when every live member has pushed into it;
// only pushes for the server's own round count; a worker waits for the new
// model after every push. The policy of HiPS and of the flat PS baseline.
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo bsp_policy();

}  // namespace geotrain
