#include "core/policies/hfa.h"

namespace geotrain {
namespace {

class Hfa : public SyncPolicy {
 public:
  Hfa(int k1, int k2, double global_lr) : k1_(k1), k2_(k2), global_lr_(global_lr) {}
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override { return push_round == server_round; }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0 && r.all_live_pushed; }
  bool waits_for_model() const override { return true; }
  int local_steps(std::size_t, int) const override { return k1_; }
  bool pushes_model_delta() const override { return true; }
  double global_lr(std::int64_t) const override { return global_lr_; }
  int local_rounds_per_push() const override { return k2_; }

 private:
  int k1_, k2_;
  double global_lr_;
};

}  // namespace

PolicyInfo hfa_policy() {
  return {"hfa",
          {},
          "hierarchical frequency aggregation: K1 local steps per DC average, K2 DC averages per WAN sync",
          {{"k1", 20, 1, 100000, true, "local steps per worker between its DC's averages"},
           {"k2", 10, 1, 100000, true, "DC averages between WAN syncs"},
           {"global_lr", 1.0, 0.0, 100.0, false, "the global server's step on the mean DC change"}},
          {"hips"},
          [](const PolicyParams& p, Role) {
            return std::make_unique<Hfa>(int(p.at("k1")), int(p.at("k2")), p.at("global_lr"));
          }};
}

}  // namespace geotrain
