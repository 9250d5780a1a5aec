#include "core/layers/sched/scheduler_registry.h"

#include "core/layers/sched/graph_plan.h"
#include "core/layers/sched/tsengine.h"

namespace geotrain {
namespace {

SchedulerInfo entry(std::string name, std::string description, std::vector<NumericParam> params,
                    decltype(SchedulerInfo::make) make) {
  SchedulerInfo s;
  s.doc = numeric_doc(name, description, params);
  s.params = std::move(params);
  s.make = std::move(make);
  if (s.make) {  // a scheduler that relays: one model to all, dense pushes summed on the way, whole messages
    s.needs.lockstep = true;
    s.needs.why_lockstep = "every member pushes and pulls each round";
    s.needs.dense = StackNeeds::Dense::kOwnTier;
    s.needs.why_dense = "relays sum dense pushes and pass one model on";
    s.needs.whole_messages = true;
    s.needs.why_whole = "relays pass whole messages on";
    s.needs.routes = true;
  }
  return s;
}

}  // namespace

const std::vector<SchedulerInfo>& scheduler_registry() {
  static const std::vector<SchedulerInfo> r = {
      entry("direct", "every child sends to and receives from its server itself (no relays)", {}, nullptr),
      entry("tsengine",
            "TSEngine: relay broadcast with epsilon-greedy receivers, pairwise merge tree for pushes, decided as "
            "transfers end from measured throughput",
            {{"greedy_max", 0.9, 0, 1, false, "the greedy choice's probability never exceeds this"}},
            [](const NumericParams& p, const SchedGroup& g) {
              return std::make_unique<TsEngine>(g, p.at("greedy_max"));
            }),
      entry("graph",
            "earliest-completion broadcast and aggregation trees planned on the measured throughput graph, re-planned "
            "when a measured edge moves",
            {{"replan_threshold", 0.25, 0, 100, false,
              "re-plan when an edge's measured seconds differ from the plan's by more than this fraction"}},
            [](const NumericParams& p, const SchedGroup& g) {
              return std::make_unique<GraphPlan>(g, p.at("replan_threshold"));
            }),
  };
  return r;
}

const SchedulerInfo* find_scheduler(const std::string& name) { return find_entry(scheduler_registry(), name); }

}  // namespace geotrain
