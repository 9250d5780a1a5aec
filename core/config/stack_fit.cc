#include "core/config/stack_fit.h"

#include "core/layers/dgt/dgt_node.h"
#include "core/layers/p3/p3_node.h"
#include "core/layers/shard/shard_node.h"
#include "core/policies/policy_registry.h"

namespace geotrain {
namespace {

bool is_lockstep(const PolicyInfo& p, const PolicyParams& params) {
  const PolicyNeeds n = policy_needs(p, params);
  return !n.stale_updates && !n.model_averaging && !n.reads_values;
}

std::string listed(const std::vector<std::string>& v, const std::string& last_sep) {  // "a, b or c"
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i == 0 ? "" : i + 1 == v.size() ? last_sep : ", ") + v[i];
  return out;
}

// Why parts a (read first) and b cannot both run; "" when they can.
std::string conflict(const StackPart& a, const StackPart& b) {
  const StackNeeds &x = a.needs, &y = b.needs;
  if (x.cuts_pushes && y.cuts_pushes) return "both send pushes in parts";
  if (x.whole_messages && y.cuts_pushes) return x.why_whole;
  if (y.whole_messages && x.cuts_pushes) return y.why_whole;
  const bool same_tier = a.tier.empty() || b.tier.empty() || a.tier == b.tier;
  if (x.routes && y.routes && same_tier) return "both decide who sends to whom";
  return {};
}

void dense_misfit(const StackPart& p, const CompressionSpec& c, std::vector<Misfit>& out) {
  if (p.needs.dense == StackNeeds::Dense::kOwnTier) {
    const bool lan = p.tier == "lan";
    if ((lan ? c.lan_push : c.wan_push).kind != "none" || (lan ? c.lan_pull : c.wan_pull).kind != "none")
      out.push_back({p.path, p.name + " needs compression." + p.tier + "_push and " + p.tier + "_pull to be none (" +
                                 p.needs.why_dense + ")"});
  } else if (p.needs.dense == StackNeeds::Dense::kAll && c.any()) {
    out.push_back({p.path, p.name + " needs no codec on any stream (" + p.needs.why_dense + ")"});
  }
}

}  // namespace

std::vector<std::string> lockstep_policies() {
  std::vector<std::string> out;
  for (const auto& p : policy_registry()) {
    if (is_lockstep(p, default_params(p))) out.push_back(p.name);
  }
  return out;
}

std::vector<StackPart> stack_parts(const Scenario& sc) {
  std::vector<StackPart> parts;
  if (sc.dgt.on()) parts.push_back({"dgt", "/dgt/mode", "", dgt_stack_needs()});
  for (const auto& [tier, choice] : {std::make_pair("lan", &sc.schedule.lan), std::make_pair("wan", &sc.schedule.wan)})
    if (choice->on())
      parts.push_back({"scheduler \"" + choice->kind + "\"", "/schedule/" + std::string(tier) + "/kind", tier,
                       find_scheduler(choice->kind)->needs});
  if (sc.p3.on()) parts.push_back({"p3", "/p3/slice_elements", "", p3_stack_needs()});
  if (sc.multigps.servers > 1)
    parts.push_back({"multigps (several global servers)", "/multigps/servers", "", multigps_stack_needs()});
  return parts;
}

std::vector<Misfit> stack_misfits(const Scenario& sc) {
  std::vector<Misfit> out;
  const std::vector<StackPart> parts = stack_parts(sc);
  const PolicyInfo* policy = find_policy(sc.policy);
  for (std::size_t j = 0; j < parts.size(); ++j) {
    const StackPart& p = parts[j];
    if (p.needs.lockstep && policy && !is_lockstep(*policy, sc.policy_params))
      out.push_back({p.path, p.name + " runs under policy " + listed(lockstep_policies(), " or ") + " (" +
                                 p.needs.why_lockstep + "), not \"" + sc.policy + "\""});
    dense_misfit(p, sc.compression, out);
    for (std::size_t i = 0; i < j; ++i)
      if (const std::string why = conflict(parts[i], p); !why.empty())
        out.push_back({p.path, p.name + " does not combine with " + parts[i].name + " (" + why + ")"});
  }
  return out;
}

}  // namespace geotrain
