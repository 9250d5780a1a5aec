#include "core/policies/ssp.h"

namespace geotrain {
namespace {

class Ssp : public SyncPolicy {
 public:
  explicit Ssp(std::int64_t s) : s_(s) {}
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override { return push_round <= server_round; }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0; }
  bool waits_for_model() const override { return false; }
  bool may_step(std::int64_t steps, std::int64_t slowest) const override { return steps - slowest <= s_; }
  bool announces_clock() const override { return true; }

 private:
  std::int64_t s_;
};

}  // namespace

PolicyInfo ssp_policy() {
  return {"ssp",
          {},
          "stale synchronous: as asp, but no worker runs more than s steps ahead of the slowest",
          {{"s", 3, 0, 1000, true, "staleness bound: steps a worker may run ahead of the slowest"}},
          {"flat"},
          [](const PolicyParams& p, Role) { return std::make_unique<Ssp>(std::int64_t(p.at("s"))); }};
}

}  // namespace geotrain
