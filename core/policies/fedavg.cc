#include "core/policies/fedavg.h"

#include <algorithm>
#include <cmath>

namespace geotrain {
namespace {

class FedAvg : public SyncPolicy {
 public:
  FedAvg(double epochs, int h, double global_lr) : epochs_(epochs), h_(h), global_lr_(global_lr) {}
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override { return push_round == server_round; }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0 && r.all_live_pushed; }
  bool waits_for_model() const override { return true; }
  int local_steps(std::size_t shard_samples, int batch_size) const override {
    if (h_ > 0) return h_;
    return std::max(1, int(std::ceil(epochs_ * double(shard_samples) / double(std::max(1, batch_size)))));
  }
  bool pushes_model_delta() const override { return true; }
  double global_lr(std::int64_t) const override { return global_lr_; }
  bool weights_by_samples() const override { return true; }

 private:
  double epochs_;
  int h_;
  double global_lr_;
};

}  // namespace

PolicyInfo fedavg_policy() {
  return {"fedavg",
          {},
          "federated averaging: E local epochs (or H steps) per worker, changes averaged by samples",
          {{"epochs", 1.0, 0.0, 1000.0, false, "local epochs over the worker's shard per round (unless h > 0)"},
           {"h", 0, 0, 100000, true, "local steps per round; 0: use epochs"},
           {"global_lr", 1.0, 0.0, 100.0, false, "the server's step on the mean model change"}},
          {"hips", "flat"},
          [](const PolicyParams& p, Role) {
            return std::make_unique<FedAvg>(p.at("epochs"), int(p.at("h")), p.at("global_lr"));
          }};
}

}  // namespace geotrain
