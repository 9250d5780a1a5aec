#include "core/policies/fedasync.h"

#include <cmath>

namespace geotrain {
namespace {

class FedAsync : public SyncPolicy {
 public:
  FedAsync(int h, double alpha, double a) : h_(h), alpha_(alpha), a_(a) {}
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override { return push_round <= server_round; }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0; }
  bool waits_for_model() const override { return true; }
  int local_steps(std::size_t, int) const override { return h_; }
  bool pushes_model_delta() const override { return true; }
  bool mixes_models() const override { return true; }
  double global_lr(std::int64_t staleness) const override { return alpha_ * std::pow(1.0 + double(staleness), -a_); }

 private:
  int h_;
  double alpha_, a_;
};

}  // namespace

PolicyInfo fedasync_policy() {
  return {
      "fedasync",
      {},
      "asynchronous federated: H local steps, each model mixed in on arrival, weighted by its staleness",
      {{"h", 20, 1, 100000, true, "local steps per push"},
       {"alpha", 0.6, 0.0, 1.0, false, "mixing weight of a fresh model"},
       {"a", 0.5, 0.0, 10.0, false, "staleness decay: weight alpha * (1 + staleness)^-a"}},
      {"hips", "flat"},
      [](const PolicyParams& p, Role) { return std::make_unique<FedAsync>(int(p.at("h")), p.at("alpha"), p.at("a")); }};
}

}  // namespace geotrain
