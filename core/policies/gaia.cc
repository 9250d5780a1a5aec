#include "core/policies/gaia.h"

#include <cmath>

#include "core/payload/sparse_payload.h"

namespace geotrain {
namespace {

class Gaia : public SyncPolicy {
 public:
  Gaia(Role role, double threshold, double decay_rounds, int mirror_clock, bool barrier)
      : across_dcs_(role == Role::kGlobalServer),
        threshold_(threshold),
        decay_rounds_(decay_rounds),
        mirror_clock_(mirror_clock),
        barrier_(barrier) {}
  // Inside a DC: bsp. Across DCs: each DC's change applied as it arrives.
  bool accepts(std::int64_t push_round, std::int64_t server_round) const override {
    return across_dcs_ ? push_round <= server_round : push_round == server_round;
  }
  bool round_complete(const RoundView& r) const override { return r.pushed > 0 && (across_dcs_ || r.all_live_pushed); }
  bool waits_for_model() const override { return true; }
  bool pushes_model_delta() const override { return true; }
  bool syncs_in_background() const override { return true; }
  int max_rounds_unsynced() const override { return mirror_clock_; }
  bool pulls_changes() const override { return true; }
  bool announces_changes() const override { return barrier_; }

  Payload select_push(const ParamSet& change, const ParamSet& global, std::int64_t round) const override {
    const float t = float(threshold_ / std::sqrt(1.0 + double(round) / decay_rounds_));
    Payload p;
    std::vector<std::uint32_t> idx;
    for (std::size_t b = 0; b < change.size(); ++b) {
      const Eigen::VectorXf& u = change[b].values;
      const Eigen::VectorXf& w = global[b].values;
      idx.clear();
      for (Eigen::Index i = 0; i < u.size(); ++i)
        if (std::abs(u[i]) > t * std::abs(w[i])) idx.push_back(std::uint32_t(i));
      append_selected(p, change[b].key, u, idx);
    }
    return p;
  }

 private:
  bool across_dcs_;
  double threshold_, decay_rounds_;
  int mirror_clock_;
  bool barrier_;
};

}  // namespace

PolicyInfo gaia_policy() {
  return {
      "gaia",
      {},
      "approximate synchronous parallel: only significant change crosses the WAN, in the background",
      {{"threshold", 0.01, 0.0, 100.0, false, "significance: an entry crosses when |change| > threshold x |weight|"},
       {"decay_rounds", 100, 1, 1e9, false, "the threshold falls as 1 / sqrt(1 + local round / decay_rounds)"},
       {"mirror_clock", 4, 1, 1e6, true, "local rounds a DC may run past its last completed sync"},
       {"selective_barrier", 1, 0, 1, true, "1: a DC waits to pull another DC's significant change before going on"}},
      {"hips"},
      [](const PolicyParams& p, Role role) {
        return std::make_unique<Gaia>(role, p.at("threshold"), p.at("decay_rounds"), int(p.at("mirror_clock")),
                                      p.at("selective_barrier") != 0);
      }};
}

}  // namespace geotrain
