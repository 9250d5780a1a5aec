// Which parts of the training stack combine: the rules the scenario loader
// applies to a scenario's scheduler, DGT, P3 and MultiGPS, from what each
// part declares (StackNeeds, core/runtime/stack_needs.h) and what the policy needs of
// a learner (core/policies/policy_registry.h). The loader refuses the first
// misfit with its JSON path and reason (exit 2); the composition test holds
// every combination a user can write to "runs, or is refused here".
#pragma once
#include <string>
#include <vector>

#include "core/config/learner_fit.h"  // Misfit
#include "core/config/scenario.h"
#include "core/runtime/stack_needs.h"

namespace geotrain {

// One part a scenario turns on, as the rules see it.
struct StackPart {
  std::string name;  // as a refusal names it: "scheduler \"graph\"", "dgt", ...
  std::string path;  // its JSON pointer in the scenario
  std::string tier;  // "lan" or "wan" for a scheduler; "" for a part of both tiers
  StackNeeds needs;
};

// The parts `sc` turns on, in the order the loader reads them.
std::vector<StackPart> stack_parts(const Scenario& sc);
// Every misfit among them and against the policy and codecs (empty: it runs).
std::vector<Misfit> stack_misfits(const Scenario& sc);
// Policies whose rounds are lockstep (every member pushes and pulls each
// round), by name: the ones a `lockstep` part runs under.
std::vector<std::string> lockstep_policies();

}  // namespace geotrain
