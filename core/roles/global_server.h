// The global server: owns the parameters and the optimiser. Under FSA it waits
// for every child (local servers in hips, workers in flat), averages over the
// contributing worker steps, applies the optimiser, asks the RunMonitor whether
// the job is over, then acknowledges every child and serves pulls.
#pragma once
#include <memory>

#include "core/deployment.h"
#include "core/optim/optimizer.h"
#include "core/roles/aggregator.h"
#include "core/roles/role_context.h"
#include "core/runtime.h"

namespace geotrain {

class GlobalServer : public Actor {
 public:
  GlobalServer(Runtime& rt, const NodeSpec& spec, const RoleContext& ctx);
  void start() override {}
  void on_message(const Message& msg) override;

  const ParamSet& params() const { return current_->blocks; }
  std::int64_t rounds() const { return rounds_; }
  double last_train_loss() const { return last_loss_; }

 private:
  void apply_round();
  Runtime& rt_;
  NodeSpec spec_;
  RoleContext ctx_;
  Aggregator agg_;
  std::unique_ptr<Optimizer> opt_;
  ParamSet params_;
  std::shared_ptr<const Payload> current_;
  std::int64_t rounds_ = 0;
  double last_loss_ = 0;
  bool stopped_ = false;
};

}  // namespace geotrain
