// HFA on the fake runtime: the local tier closes K2 - 1 of every K2 rounds
// inside the DC, so the WAN sees one sync per K1 * K2 worker steps.
#include <gtest/gtest.h>

#include "core/roles/global_server.h"
#include "core/roles/worker.h"
#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

struct Counts {
  std::int64_t wan_pushes = 0, worker_steps = 0, rounds = 0;
};

Counts run(const std::string& policy, int rounds, ParamSet* params = nullptr) {
  testing::FakeJob fj(testing::small_scenario(
      "hips", {"policy=" + policy, "stop.rounds=" + std::to_string(rounds), R"(optimizer={"kind":"sgd","lr":0.1})"}));
  fj.run();
  const Deployment& dep = fj.job().deployment();
  const auto& gs = fj.role<GlobalServer>(dep.global_server);
  Counts c;
  c.rounds = gs.rounds();
  c.wan_pushes = gs.report(fj.world().now())["pushes"];
  for (NodeId w : dep.workers) c.worker_steps += fj.role<Worker>(w).stats().steps;
  if (params) *params = gs.params();
  return c;
}

TEST(Hfa, TwoHundredTimesFewerWanSyncsPerWorkerStepThanBsp) {
  const Counts bsp = run(R"({"kind":"bsp"})", 20);
  const Counts hfa = run(R"({"kind":"hfa"})", 2);  // K1 = 20, K2 = 10
  ASSERT_EQ(bsp.rounds, 20);
  ASSERT_EQ(hfa.rounds, 2);
  ASSERT_GT(hfa.wan_pushes, 0);
  EXPECT_EQ(hfa.worker_steps, bsp.worker_steps * 20) << "200 steps per worker per WAN sync, not 1";
  EXPECT_EQ(hfa.wan_pushes, bsp.wan_pushes / 10) << "one push per DC per WAN sync, in both";
  const double bsp_rate = double(bsp.wan_pushes) / double(bsp.worker_steps);
  const double hfa_rate = double(hfa.wan_pushes) / double(hfa.worker_steps);
  EXPECT_DOUBLE_EQ(bsp_rate / hfa_rate, 200.0);
}

// With K2 = 1 every DC average goes up: HFA is local SGD with h = K1. With
// K2 > 1 the DCs train apart between WAN syncs, and the result differs.
TEST(Hfa, WithOneDcAveragePerSyncItIsLocalSgd) {
  ParamSet hfa, local, apart;
  run(R"({"kind":"hfa","k1":3,"k2":1})", 12, &hfa);
  run(R"({"kind":"local_sgd","h":3})", 12, &local);
  EXPECT_LT(max_abs_diff(hfa, local), 1e-5);
  const Counts c = run(R"({"kind":"hfa","k1":3,"k2":4})", 3, &apart);
  EXPECT_EQ(c.worker_steps, run(R"({"kind":"local_sgd","h":3})", 12).worker_steps) << "the same steps";
  EXPECT_GT(max_abs_diff(apart, local), 1e-3) << "DCs apart for 4 averages are not one model";
}

}  // namespace
}  // namespace geotrain
