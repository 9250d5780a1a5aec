#include "core/policies/asp.h"

namespace geotrain {
namespace {

class Asp : public SyncPolicy {
 public:
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override { return push_round <= server_round; }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0; }
  bool waits_for_model() const override { return false; }
};

}  // namespace

PolicyInfo asp_policy() {
  return {"asp",
          {},
          "asynchronous: the server applies each push as it arrives; workers never wait",
          {},
          {"hips", "flat"},
          [](const PolicyParams&, Role) { return std::make_unique<Asp>(); }};
}

}  // namespace geotrain
