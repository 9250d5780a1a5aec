// The scenario's `schedule` section: a scheduler per tier.
#pragma once

#include "core/layers/sched/scheduler_registry.h"

namespace geotrain {

// Transfer scheduling per tier (core/layers/sched, REFERENCE.md section 7): who
// relays the model to whom and who sums whose push, inside a DC (lan: a local
// server's group) and across the WAN (wan: the global server's).
struct ScheduleSpec {
  SchedulerChoice lan, wan;
  bool any() const { return lan.on() || wan.on(); }
};

}  // namespace geotrain
