#include "core/policies/local_sgd.h"

namespace geotrain {
namespace {

class LocalSgd : public SyncPolicy {
 public:
  LocalSgd(int h, double global_lr) : h_(h), global_lr_(global_lr) {}
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override { return push_round == server_round; }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0 && r.all_live_pushed; }
  bool waits_for_model() const override { return true; }
  int local_steps(std::size_t, int) const override { return h_; }
  bool pushes_model_delta() const override { return true; }
  double global_lr(std::int64_t) const override { return global_lr_; }

 private:
  int h_;
  double global_lr_;
};

}  // namespace

PolicyInfo local_sgd_policy() {
  return {"local_sgd",
          {},
          "H local steps per worker, then the mean model change is applied (synchronous rounds)",
          {{"h", 4, 1, 100000, true, "local steps per round"},
           {"global_lr", 1.0, 0.0, 100.0, false, "the server's step on the mean model change"}},
          {"hips", "flat"},
          [](const PolicyParams& p, Role) { return std::make_unique<LocalSgd>(int(p.at("h")), p.at("global_lr")); }};
}

}  // namespace geotrain
