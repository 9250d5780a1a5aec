// ESync (REFERENCE.md section 3): workers of unequal speed take unequal numbers
// of local steps so that all reach the server together. Before each step a
// worker reports to the state server, which tells it "push now" once one more
// step would end after the slowest worker's current step, less eps:
// k_i = max(1, floor((C_slow - eps) / C_i)) in the steady state. Each local
// round's model change is averaged and applied as w += global_lr * mean.
// mode "compute": C is the step's compute time (the published method);
// mode "transfer": C is compute plus the worker's measured transfer time to the
// top server (GeoMX's "reach-server time").
#pragma once
#include "core/policies/policy_registry.h"

namespace geotrain {

PolicyInfo esync_policy();

// The state server's rule, shared with nbsync: should `r` push now, and how
// long will the slowest worker's compute still take then?
PushAdvice esync_push_now(const std::map<NodeId, WorkerState>& workers, NodeId r, TimeNs now, double eps,
                          bool transfer_aware);
// The policy object of esync (`pipelined` false) and nbsync (true), from
// their parameters eps, transfer_aware and global_lr.
std::unique_ptr<SyncPolicy> make_balanced_local_rounds(const PolicyParams& p, bool pipelined);

}  // namespace geotrain
