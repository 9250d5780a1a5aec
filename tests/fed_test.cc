// The federated baselines on the fake runtime: FedAvg's local epochs and
// sample weighting, FedAsync's staleness-weighted changes applied on arrival.
#include <gtest/gtest.h>

#include <cmath>

#include "core/policies/policy_registry.h"
#include "core/roles/global_server.h"
#include "core/roles/worker.h"
#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

ParamSet final_params(const std::string& policy, int rounds, std::vector<std::int64_t>* steps = nullptr) {
  testing::FakeJob fj(testing::small_scenario(
      "hips", {"policy=" + policy, "stop.rounds=" + std::to_string(rounds), R"(optimizer={"kind":"sgd","lr":0.1})"}));
  fj.run();
  const Deployment& dep = fj.job().deployment();
  if (steps)
    for (NodeId w : dep.workers) steps->push_back(fj.role<Worker>(w).stats().steps);
  return fj.role<GlobalServer>(dep.global_server).params();
}

// Equal iid shards: weighting by samples is weighting by worker, so FedAvg
// with H steps is local SGD with h = H.
TEST(FedAvg, WithEqualShardsAndHStepsItIsLocalSgd) {
  EXPECT_LT(max_abs_diff(final_params(R"({"kind":"fedavg","h":3})", 8), final_params(R"({"kind":"local_sgd","h":3})", 8)),
            1e-5);
}

// One epoch over a 500-sample shard in batches of 32: 16 local steps per round.
TEST(FedAvg, OneEpochIsCeilShardOverBatchSteps) {
  std::vector<std::int64_t> steps;
  final_params(R"({"kind":"fedavg","epochs":1})", 3, &steps);  // 2000 samples over 4 workers
  ASSERT_EQ(steps.size(), 4u);
  for (std::int64_t s : steps) EXPECT_EQ(s, 3 * 16);
  steps.clear();
  final_params(R"({"kind":"fedavg","epochs":0.5})", 3, &steps);
  for (std::int64_t s : steps) EXPECT_EQ(s, 3 * 8);
}

// Unequal shards (dirichlet): a worker with more samples counts more, so
// FedAvg is no longer local SGD (which counts every worker once).
TEST(FedAvg, ChangesAreWeightedBySamples) {
  auto run = [](const std::string& policy) {
    testing::FakeJob fj(testing::small_scenario(
        "flat", {"policy=" + policy, "stop.rounds=4", R"(partition={"kind":"dirichlet","alpha":0.1})"}));
    fj.run();
    return fj.role<GlobalServer>(fj.job().deployment().global_server).params();
  };
  EXPECT_GT(max_abs_diff(run(R"({"kind":"fedavg","h":2})"), run(R"({"kind":"local_sgd","h":2})")), 1e-3);
}

TEST(FedAsync, StalenessWeight) {
  const auto p = find_policy("fedasync")->make({{"h", 5}, {"alpha", 0.6}, {"a", 0.5}}, Role::kGlobalServer);
  EXPECT_DOUBLE_EQ(p->global_lr(0), 0.6);
  EXPECT_DOUBLE_EQ(p->global_lr(3), 0.6 / 2.0);
  EXPECT_DOUBLE_EQ(p->global_lr(8), 0.6 / 3.0);
}

// A DC whose steps take about 1 s: the fast DC's workers push far more often
// (no round waits for the slow one) and their changes land stale on it.
TEST(FedAsync, ChangesApplyOnArrivalAndTheFastDoNotWait) {
  testing::FakeJob fj(testing::small_scenario(
      "flat", {R"(policy={"kind":"fedasync","h":2})", "stop.rounds=60", "topology.dcs.2.worker_gflops=0.0002"}));
  fj.run();
  const Deployment& dep = fj.job().deployment();
  std::map<int, std::int64_t> pushes;
  for (NodeId w : dep.workers) {
    const WorkerStats s = fj.role<Worker>(w).stats();
    EXPECT_EQ(s.steps, 2 * s.pushes);
    pushes[dep.nodes[std::size_t(w)].dc] += s.pushes;
  }
  EXPECT_GT(pushes.at(1), 3 * pushes.at(2));
  const auto rep = fj.role<GlobalServer>(dep.global_server).report(fj.world().now());
  EXPECT_EQ(rep["rounds"], 60);
  EXPECT_GT(rep["staleness_max"].get<int>(), 1);
}

}  // namespace
}  // namespace geotrain
