#include "core/policies/mixed_sync.h"

#include <algorithm>

namespace geotrain {
namespace {

class MixedSync : public SyncPolicy {
 public:
  MixedSync(Role role, double lambda) : across_dcs_(role == Role::kGlobalServer), lambda_(lambda) {}
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override {
    return across_dcs_ ? push_round <= server_round : push_round == server_round;
  }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0 && (across_dcs_ || r.all_live_pushed); }
  bool waits_for_model() const override { return true; }
  bool compensates_delay() const override { return lambda_ > 0; }
  void compensate(Payload& push, const ParamSet& now, const ParamSet& served) const override {
    // push holds n gradients summed: sum + lambda * sum (.) sum / n (.) (w - w_bak) is
    // n times the compensated mean.
    const float k = float(lambda_) / float(std::max(1, push.contributors));
    for (std::size_t b = 0; b < push.blocks.size(); ++b) {
      Eigen::VectorXf& g = push.blocks[b].values;
      g.array() += k * g.array().square() * (now[b].values - served[b].values).array();
    }
  }

 private:
  bool across_dcs_;
  double lambda_;
};

}  // namespace

PolicyInfo mixed_sync_policy() {
  return {"mixed_sync",
          {},
          "synchronous inside each DC, asynchronous across DCs, with optional DC-ASGD delay compensation",
          {{"lambda", 0.04, 0.0, 100.0, false, "DC-ASGD's compensation strength at the global server; 0: none"}},
          {"hips"},
          [](const PolicyParams& p, Role role) { return std::make_unique<MixedSync>(role, p.at("lambda")); }};
}

}  // namespace geotrain
