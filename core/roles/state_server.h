// The state server (ESync, REFERENCE.md section 3): a node of its own that
// every worker reports to before each step (kStateReport: local steps so far
// this round, its last step's compute time, its transfer estimate). For a
// report after at least one local step it answers (kStateReply) whether the
// worker pushes now or takes one more step; the rule is the SyncPolicy's
// push_now(). The report's arrival time stands for the start of the worker's
// current step (request latency is not corrected for, as in the published
// method). It holds no parameters and sends nothing unasked.
#pragma once
#include <map>

#include "core/roles/role_context.h"
#include "core/runtime/runtime.h"
#include "core/topology/deployment.h"

namespace geotrain {

class StateServer : public Actor {
 public:
  StateServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx);
  void start() override {}
  void on_message(const Message& msg) override;
  // {reports, push_now}: reports received, "push now" replies given.
  nlohmann::json report(TimeNs now) const override;

 private:
  Runtime& rt_;
  NodeSpec spec_;
  RoleContext ctx_;
  std::map<NodeId, WorkerState> workers_;
  std::int64_t reports_ = 0, push_now_ = 0;
};

}  // namespace geotrain
