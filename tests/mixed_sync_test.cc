// MixedSync on the fake runtime: bsp inside each DC, asp across DCs, and the
// DC-ASGD compensation's arithmetic.
#include <gtest/gtest.h>

#include "core/policies/policy_registry.h"
#include "core/roles/global_server.h"
#include "core/roles/worker.h"
#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

// One DC's steps take about 1 s, five times the other's rounds: under bsp every
// DC pushes every round; under mixed_sync the fast DC does not wait for it,
// while inside each DC the workers still push together.
TEST(MixedSync, SynchronousInsideEachDcAsynchronousAcross) {
  auto run = [](const std::string& policy) {
    testing::FakeJob fj(
        testing::small_scenario("hips", {"policy=" + policy, "stop.rounds=60", "topology.dcs.2.worker_gflops=0.0002"}));
    fj.run();
    const Deployment& dep = fj.job().deployment();
    std::map<int, std::vector<std::int64_t>> pushes_by_dc;
    for (NodeId w : dep.workers)
      pushes_by_dc[dep.nodes[std::size_t(w)].dc].push_back(fj.role<Worker>(w).stats().pushes);
    const auto rep = fj.role<GlobalServer>(dep.global_server).report(fj.world().now());
    return std::make_pair(pushes_by_dc, rep);
  };
  const auto [bsp, bsp_rep] = run(R"({"kind":"bsp"})");
  const auto [mixed, mixed_rep] = run(R"({"kind":"mixed_sync"})");
  for (const auto& [dc, pushes] : mixed)
    for (std::int64_t p : pushes) EXPECT_EQ(p, pushes.front()) << "dc " << dc << ": its workers push together";
  EXPECT_EQ(bsp.at(1).front(), bsp.at(2).front()) << "bsp: the slow DC holds every round";
  EXPECT_GT(mixed.at(1).front(), 3 * mixed.at(2).front()) << "mixed_sync: the fast DC goes on without it";
  EXPECT_EQ(bsp_rep["staleness_max"], 0);
  EXPECT_GT(mixed_rep["staleness_mean"].get<double>(), 0.5) << "a DC's push lands after others' were applied";
}

// g' = g + lambda g (.) g (.) (w - w_bak), for a sum of n gradients.
TEST(MixedSync, DcAsgdCompensatesTheMeanGradient) {
  const PolicyInfo* info = find_policy("mixed_sync");
  ASSERT_NE(info, nullptr);
  const auto gs = info->make({{"lambda", 0.5}}, Role::kGlobalServer);
  ASSERT_TRUE(gs->compensates_delay());
  EXPECT_FALSE(info->make({{"lambda", 0.0}}, Role::kGlobalServer)->compensates_delay());
  Payload push;
  push.contributors = 2;
  push.blocks = {{0, Eigen::VectorXf(3)}};
  push.blocks[0].values << 2.0f, -4.0f, 0.0f;  // the mean gradient is (1, -2, 0)
  ParamSet now = {{0, Eigen::VectorXf(3)}}, served = {{0, Eigen::VectorXf(3)}};
  now[0].values << 1.0f, 1.0f, 1.0f;
  served[0].values << 0.0f, 3.0f, 1.0f;  // w - w_bak = (1, -2, 0)
  gs->compensate(push, now, served);
  // mean' = (1 + 0.5*1*1, -2 + 0.5*4*(-2), 0) = (1.5, -6, 0); the push holds 2x that.
  EXPECT_FLOAT_EQ(push.blocks[0].values[0], 3.0f);
  EXPECT_FLOAT_EQ(push.blocks[0].values[1], -12.0f);
  EXPECT_FLOAT_EQ(push.blocks[0].values[2], 0.0f);
}

}  // namespace
}  // namespace geotrain
