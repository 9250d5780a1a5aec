// A DC's local server (HiPS lower tier) under FSA: sums its workers' pushes,
// pushes the sum to the global server, pulls the new parameters once the global
// round is acknowledged, and only then acknowledges its workers and serves
// their pulls (REFERENCE.md section 1).
#pragma once
#include "core/deployment.h"
#include "core/roles/aggregator.h"
#include "core/roles/role_context.h"
#include "core/runtime.h"

namespace geotrain {

class LocalServer : public Actor {
 public:
  LocalServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx);
  void start() override {}
  void on_message(const Message& msg) override;

 private:
  Runtime& rt_;
  NodeSpec spec_;
  RoleContext ctx_;
  Aggregator agg_;
  std::shared_ptr<const Payload> params_;  // latest pulled parameters, shared with every response
  std::int64_t round_ = 0;
};

}  // namespace geotrain
