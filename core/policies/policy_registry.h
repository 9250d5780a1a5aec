// The one registry of synchronisation policies: each registers its name (and
// aliases), a one-line description, its parameters with defaults, ranges and
// help, the architectures it runs under, and a factory. The scenario loader
// validates `policy` through it, `geotrain list` prints it, and a test holds
// scenarios/scenario.schema.json to it. A new policy is one file under
// core/policies/ plus one line in policy_registry.cc.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/base/registry.h"
#include "core/policies/sync_policy.h"
#include "core/runtime/role.h"

namespace geotrain {

using PolicyParamSpec = NumericParam;
using PolicyParams = NumericParams;

struct PolicyInfo {
  std::string name;
  std::vector<std::string> aliases;
  std::string description;
  std::vector<PolicyParamSpec> params;
  std::vector<std::string> architectures;  // where it makes sense
  // An instance for one role instance; `role` lets a policy differ per tier
  // (a local server inside a DC, the global server across the WAN).
  std::function<std::unique_ptr<SyncPolicy>(const PolicyParams&, Role role)> make;
};

const std::vector<PolicyInfo>& policy_registry();

// What a policy asks of the algorithm it trains, read off its own instances'
// answers (every role's): a learner that cannot give it is refused
// (core/config/learner_fit.h).
struct PolicyNeeds {
  bool stale_updates = false;  // applies an update computed on an older model (accepts a late round, never waits, ...)
  bool model_averaging = false;  // pushes model changes after local steps, mixes or averages models
  bool reads_values = false;     // filters what it sends by the parameters' values (gaia)
  // What it computes depends on when messages arrive (stale updates, steps a
  // state server balances): its runs in ns-3 and in real mode differ.
  bool timing_dependent = false;
};
PolicyNeeds policy_needs(const PolicyInfo& p, const PolicyParams& params);
// Every parameter of `p` at its default.
PolicyParams default_params(const PolicyInfo& p);
// By name or alias; null when unknown.
const PolicyInfo* find_policy(const std::string& name);
// Every accepted `kind`: names and aliases.
std::vector<std::string> policy_kinds();

}  // namespace geotrain
