#include "core/policies/policy_registry.h"

#include "core/policies/asp.h"
#include "core/policies/bsp.h"
#include "core/policies/esync.h"
#include "core/policies/fedasync.h"
#include "core/policies/fedavg.h"
#include "core/policies/gaia.h"
#include "core/policies/hfa.h"
#include "core/policies/local_sgd.h"
#include "core/policies/mixed_sync.h"
#include "core/policies/nbsync.h"
#include "core/policies/ssp.h"

namespace geotrain {

const std::vector<PolicyInfo>& policy_registry() {
  static const std::vector<PolicyInfo> registry = {
      bsp_policy(), asp_policy(),        ssp_policy(),    local_sgd_policy(), esync_policy(), nbsync_policy(),
      hfa_policy(), mixed_sync_policy(), fedavg_policy(), fedasync_policy(),  gaia_policy(),
  };
  return registry;
}

PolicyNeeds policy_needs(const PolicyInfo& p, const PolicyParams& params) {
  PolicyNeeds n;
  for (Role role : {Role::kWorker, Role::kLocalServer, Role::kGlobalServer}) {
    const auto s = p.make(params, role);
    n.stale_updates |= s->accepts(0, 1) || !s->waits_for_model() || s->syncs_in_background();
    n.model_averaging |= s->pushes_model_delta() || s->mixes_models() || s->local_rounds_per_push() > 1 ||
                         s->syncs_in_background() || s->local_steps(1000, 1) > 1;
    n.reads_values |= s->syncs_in_background();
    n.timing_dependent |= n.stale_updates || s->uses_state_server();
  }
  return n;
}

PolicyParams default_params(const PolicyInfo& p) {
  PolicyParams out;
  for (const auto& ps : p.params) out[ps.name] = ps.default_value;
  return out;
}

const PolicyInfo* find_policy(const std::string& name) {
  for (const auto& p : policy_registry()) {
    if (p.name == name) return &p;
    for (const auto& a : p.aliases)
      if (a == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> policy_kinds() {
  std::vector<std::string> out;
  for (const auto& p : policy_registry()) {
    out.push_back(p.name);
    out.insert(out.end(), p.aliases.begin(), p.aliases.end());
  }
  return out;
}

}  // namespace geotrain
