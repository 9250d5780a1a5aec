// The transfer schedulers a scenario may choose per tier (schedule.lan,
// schedule.wan): `direct` (every child talks to its server, no layer), and
// the ones that relay and merge through core/layers/sched. The scenario loader,
// `geotrain list` and the schema test read this table. A new scheduler is its
// own file plus one line here.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/base/registry.h"
#include "core/layers/sched/group_scheduler.h"
#include "core/runtime/stack_needs.h"

namespace geotrain {

struct SchedulerInfo {
  ComponentDoc doc;                  // name, one line, parameter help (from params)
  std::vector<NumericParam> params;  // read by the scenario loader
  // One group's scheduler; null for `direct`.
  std::function<std::unique_ptr<GroupScheduler>(const NumericParams&, const SchedGroup&)> make;
  StackNeeds needs;  // what it asks of the rest of the stack (core/config/stack_fit.h)
};

const std::vector<SchedulerInfo>& scheduler_registry();
const SchedulerInfo* find_scheduler(const std::string& name);

// A scenario's choice for one tier.
struct SchedulerChoice {
  std::string kind = "direct";
  NumericParams params;  // every parameter, defaults filled in
  bool on() const { return kind != "direct"; }
};

}  // namespace geotrain
