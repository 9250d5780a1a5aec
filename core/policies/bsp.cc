#include "core/policies/bsp.h"

namespace geotrain {
namespace {

class Bsp : public SyncPolicy {
 public:
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override { return push_round == server_round; }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0 && r.all_live_pushed; }
  bool waits_for_model() const override { return true; }
};

}  // namespace

PolicyInfo bsp_policy() {
  return {
      "bsp", {"fsa"},          "bulk synchronous: every worker's push in every round; workers wait for the new model",
      {},    {"hips", "flat"}, [](const PolicyParams&, Role) { return std::make_unique<Bsp>(); }};
}

}  // namespace geotrain
