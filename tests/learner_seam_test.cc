// The Learner seam: merge rules, the loader's refusals from declared
// capabilities, and metrics through the outputs (summary, timeline, targets).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include "core/config/learner_fit.h"
#include "core/job/job.h"
#include "core/payload/merge.h"
#include "core/policies/policy_registry.h"
#include "core/run/results.h"
#include "sim/sim_runner.h"
#include "test_util.h"

namespace geotrain {
namespace {

Payload dense(std::uint32_t key, std::vector<float> v) {
  Payload p;
  p.blocks.push_back({key, Eigen::Map<Eigen::VectorXf>(v.data(), Eigen::Index(v.size()))});
  p.contributors = 1;
  return p;
}

TEST(Merge, WithoutRulesItIsTheSumBitForBit) {
  Payload a = dense(0, {1, 2, 3}), b = dense(0, {0.5f, -2, 7});
  Payload s1 = a, s2 = a;
  accumulate(s1, b);
  merge(s2, b, {});
  EXPECT_EQ(s1.blocks[0].values, s2.blocks[0].values);
  EXPECT_EQ(s2.contributors, 2);
}

TEST(Merge, MaxMinAndSumApplyPerKey) {
  const std::vector<BlockRule> rules = {{1, Merge::kMax}, {2, Merge::kMin}};
  Payload a, b;
  for (std::uint32_t k : {0u, 1u, 2u}) {
    a.blocks.push_back({k, Eigen::Vector3f(1, 5, -1)});
    b.blocks.push_back({k, Eigen::Vector3f(2, 4, -3)});
  }
  merge(a, b, rules);
  EXPECT_EQ(a.blocks[0].values, Eigen::Vector3f(3, 9, -4));  // no rule: sum
  EXPECT_EQ(a.blocks[1].values, Eigen::Vector3f(2, 5, -1));  // max
  EXPECT_EQ(a.blocks[2].values, Eigen::Vector3f(1, 4, -3));  // min
}

// KNN's candidates: every worker's k nearest (distance, label), merged up any
// tree in any order, are the k nearest of all.
TEST(Merge, KSmallestIsTheSameThroughAnyTreeAndOrder) {
  const std::uint32_t k = 5, width = 2;
  const BlockRule rule{0, Merge::kKSmallest, width, k, Precision::kExact};
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> u(0, 100);
  std::vector<Payload> parts;
  std::vector<std::pair<float, float>> all;
  for (int w = 0; w < 6; ++w) {
    std::vector<std::pair<float, float>> c;
    for (std::uint32_t i = 0; i < k; ++i) c.push_back({std::floor(u(rng)), float(w)});  // ties happen
    std::sort(c.begin(), c.end());
    all.insert(all.end(), c.begin(), c.end());
    std::vector<float> flat;
    for (auto& [d, l] : c) flat.insert(flat.end(), {d, l});
    parts.push_back(dense(0, flat));
  }
  std::sort(all.begin(), all.end());
  Eigen::VectorXf expected(k * width);
  for (std::uint32_t i = 0; i < k; ++i) expected[2 * i] = all[i].first, expected[2 * i + 1] = all[i].second;

  Payload left_to_right = parts[0];
  for (std::size_t i = 1; i < parts.size(); ++i) merge(left_to_right, parts[i], {rule});
  EXPECT_EQ(left_to_right.blocks[0].values, expected);

  Payload a = parts[5], b = parts[1], c = parts[4];  // a tree: ((5,3),(1,0)) then (4,2)
  merge(a, parts[3], {rule});
  merge(b, parts[0], {rule});
  merge(c, parts[2], {rule});
  merge(a, b, {rule});
  merge(a, c, {rule});
  EXPECT_EQ(a.blocks[0].values, expected);
  EXPECT_EQ(a.contributors, 6);
}

LearnerInfo learner_with(LearnerCaps caps) {
  LearnerInfo l = *find_entry(builtin_learners(), "mlp");
  l.doc.name = "phased";
  l.caps = caps;
  return l;
}

bool refused_at(const std::vector<Misfit>& m, const std::string& path) {
  return std::any_of(m.begin(), m.end(), [&](const Misfit& x) { return x.path == path; });
}

TEST(LearnerFit, DeclaredCapabilitiesDecideWhatIsRefusedAndWhere) {
  const Scenario sc = testing::small_scenario("hips");
  EXPECT_TRUE(learner_misfits(*find_entry(builtin_learners(), "mlp"), sc).empty());

  LearnerCaps phase_locked;
  phase_locked.stale_ok = false;
  phase_locked.model_averaging = false;
  const LearnerInfo phased = learner_with(phase_locked);
  EXPECT_TRUE(learner_misfits(phased, sc).empty());  // bsp
  for (const char* p : {"asp", "ssp", "local_sgd", "hfa", "gaia", "fedasync", "nbsync", "esync", "mixed_sync"}) {
    const auto m = learner_misfits(
        phased, testing::small_scenario(find_policy(p)->architectures.at(0), {std::string("policy.kind=") + p}));
    EXPECT_TRUE(refused_at(m, "/policy/kind")) << p;
  }
  const auto accepted = accepted_policies(phased);
  EXPECT_EQ(accepted, std::vector<std::string>{"bsp"});

  LearnerCaps exact;
  exact.update_precision = exact.model_precision = Precision::kExact;
  const LearnerInfo histograms = learner_with(exact);
  EXPECT_TRUE(
      refused_at(learner_misfits(histograms, testing::small_scenario("hips", {"compression.wan_push.kind=bsc"})),
                 "/compression/wan_push/kind"));
  EXPECT_TRUE(
      learner_misfits(histograms, testing::small_scenario("hips", {"compression.wan_push.kind=sparse"})).empty());
  EXPECT_TRUE(refused_at(learner_misfits(histograms, testing::small_scenario("hips", {R"(dgt={"mode":1})"})), "/dgt"));
  for (const auto& c : accepted_codecs(histograms)) EXPECT_TRUE(find_codec(c)->lossless) << c;

  LearnerCaps rounding;
  rounding.update_precision = Precision::kRounding;
  rounding.model_precision = Precision::kExact;
  const LearnerInfo statistics = learner_with(rounding);
  EXPECT_TRUE(learner_misfits(statistics, testing::small_scenario("hips", {"compression.wan_push.kind=fp16"})).empty());
  EXPECT_TRUE(
      refused_at(learner_misfits(statistics, testing::small_scenario("hips", {"compression.wan_push.kind=qsgd"})),
                 "/compression/wan_push/kind"));
  EXPECT_TRUE(refused_at(learner_misfits(statistics, testing::small_scenario("hips", {R"(dgt={"mode":1})"})), "/dgt"));
  EXPECT_TRUE(  // the model (trees' node indices) must arrive exactly
      refused_at(learner_misfits(statistics, testing::small_scenario("hips", {"compression.wan_pull.kind=fp16"})),
                 "/compression/wan_pull/kind"));
  for (const auto& c : accepted_codecs(statistics))
    EXPECT_TRUE(find_codec(c)->lossless || find_codec(c)->rounds_entries) << c;
  EXPECT_EQ(accepted_codecs(statistics).size(), accepted_codecs(histograms).size() + 1);  // fp16
}

TEST(LearnerFit, TheLoaderRefusesAMisfitWithItsJsonPath) {
  try {
    testing::small_scenario("hips",
                            {R"(model={"kind":"profile","profile":"resnet50"})", R"(p3={"slice_elements":1000})"});
    FAIL() << "a profile with p3 was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/p3: profile has tensors that cannot be cut"), std::string::npos) << e.what();
  }
}

TEST(Metrics, EveryMetricReachesTheSummaryAndTheTimelineAndATargetOnAnyMetricIsTimed) {
  // test_loss is lower-is-better: the target is reached when it falls to the value
  // (2.18, 1.57, 1.09 at rounds 10, 20, 30: reached at the third evaluation, not the first).
  const Scenario sc =
      testing::small_scenario("hips", {R"(stop={"rounds":30,"target":{"metric":"test_loss","value":1.2}})"});
  const RunResult r = sim::run_simulation(sc);
  ASSERT_EQ(r.error, "");
  ASSERT_EQ(r.metrics.size(), 2u);
  ASSERT_TRUE(r.time_to_target_s.has_value());
  double first_below = -1;
  for (const auto& row : r.timeline)
    if (first_below < 0 && row.metrics.at(1) <= 1.2) first_below = row.time_s;
  EXPECT_EQ(*r.time_to_target_s, first_below);
  const auto s = summary_json(r);
  EXPECT_EQ(s["metrics"]["primary"], "test_accuracy");
  EXPECT_EQ(s["metrics"]["values"]["test_loss"]["higher_is_better"], false);
  EXPECT_EQ(s["metrics"]["values"]["test_accuracy"]["final"].get<double>(), r.timeline.back().metrics[0]);
  EXPECT_EQ(s["final_test_accuracy"].get<double>(), r.timeline.back().metrics[0]);
  EXPECT_EQ(s["target"]["metric"], "test_loss");
  EXPECT_TRUE(s["target_accuracy"].is_null());

  const std::string dir = ::testing::TempDir() + "/geotrain-metrics-test";
  write_run_outputs(dir, r);
  std::ifstream csv(dir + "/timeline.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_EQ(header.rfind("time_s,round,test_accuracy,test_loss,loss,wan_bytes,lan_bytes", 0), 0u) << header;
  std::filesystem::remove_all(dir);
}

TEST(Metrics, AnUnknownTargetMetricIsRefusedWithTheNamesThereAre) {
  try {
    testing::small_scenario("hips", {R"(stop={"rounds":30,"target":{"metric":"ndcg","value":1.2}})"});
    FAIL() << "an unknown metric was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/stop/target/metric"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test_loss"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// Apply::kLearner end to end: k-means with every worker assigning its whole
// shard each round gives Lloyd's iterations on the whole training set, which
// the learner's own functions compute serially here.
// The local-steps variant: Lloyd iterations on each shard between WAN rounds reach Lloyd's inertia in fewer
// rounds and end within 0.1% of it.
TEST(LearnerApply, KMeansLocalStepsNeedFewerWanRounds) {
  const auto run = [](int local) {
    return sim::run_simulation(testing::small_scenario(
        "hips", {R"(model={"kind":"kmeans","k":4,"local_iterations":)" + std::to_string(local) + "}",
                 "batch_size=100000", R"(stop={"rounds":12})", "eval.every_rounds=1"}));
  };
  const RunResult lloyd = run(1), local = run(4);
  ASSERT_EQ(lloyd.error, "");
  ASSERT_EQ(local.error, "");
  const double final = lloyd.timeline.back().metrics[0];
  const auto rounds_to = [&](const RunResult& r) {
    for (const auto& row : r.timeline)
      if (row.metrics[0] <= final * 1.001) return row.round;
    return std::int64_t{1000};
  };
  EXPECT_LT(rounds_to(local), rounds_to(lloyd));
  EXPECT_NEAR(local.timeline.back().metrics[0], final, 1e-3 * final);
}

TEST(LearnerApply, DistributedKMeansIsLloydsIterationsOnTheWholeSet) {
  const Scenario sc = testing::small_scenario(
      "hips", {R"(model={"kind":"kmeans","k":4})", "batch_size=100000", R"(stop={"rounds":6})", "eval.every_rounds=1"});
  const RunResult r = sim::run_simulation(sc);
  ASSERT_EQ(r.error, "");
  const TrainingJob job(sc);
  const Learner& km = job.learner();
  ParamSet model = km.init(sc.seed);
  std::vector<int> all(std::size_t(job.data().train.size()));
  std::iota(all.begin(), all.end(), 0);
  std::mt19937_64 rng(1);
  ASSERT_EQ(r.timeline.size(), 6u);
  double last = 1e300;
  for (int round = 0; round < 6; ++round) {
    ParamSet stats;
    km.local_update(model, job.data().train, all, rng, &stats);
    km.apply(model, stats, 4);
    const double inertia = km.evaluate(model, job.data().test)[0];
    EXPECT_NEAR(r.timeline[std::size_t(round)].metrics[0], inertia, 1e-4 * inertia) << "round " << round + 1;
    EXPECT_LE(r.timeline[std::size_t(round)].loss, last * (1 + 1e-6)) << "Lloyd's never increases the inertia";
    last = r.timeline[std::size_t(round)].loss;
  }
  try {  // its sums and counts must arrive exactly
    testing::small_scenario(
        "hips", {R"(model={"kind":"kmeans","k":4})", R"(stop={"rounds":6})", "compression.wan_push.kind=fp16"});
    FAIL() << "k-means through a lossy codec was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/compression/wan_push/kind: kmeans sends blocks that must arrive exactly"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace geotrain

#include "core/data/ranking.h"
#include "core/learners/metrics.h"

namespace geotrain {
namespace {

// The yardsticks of the ranking learners on the shipped scenario's data (seed 1): ranking the held-out
// queries by the true scoring function, and at random. (docs/algorithms.md quotes both.)
TEST(RankingData, TheTrueScoreRanksNearlyIdeallyAndARandomRankerPoorly) {
  const TrainTest tt = make_ranking({2000, 500, 20, 10, 0.3, 1});
  const Dataset& t = tt.test;
  std::vector<float> truth, random;
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<float> u(0, 1);
  for (Eigen::Index k = 0; k < t.x.cols(); ++k) {
    truth.push_back(ranking_true_score(&t.x(0, k), t.features()));
    random.push_back(u(rng));
  }
  const double best = mean_ndcg_at(10, truth, t.target, t.query_start);
  const double chance = mean_ndcg_at(10, random, t.target, t.query_start);
  std::printf("NDCG@10 on the held-out queries: true score %.4f, random %.4f\n", best, chance);
  EXPECT_GT(best, 0.9);
  EXPECT_LT(chance, 0.6);
  std::vector<float> ideal = t.target;  // ranking by the grades themselves is ideal
  EXPECT_DOUBLE_EQ(mean_ndcg_at(10, ideal, t.target, t.query_start), 1.0);
}

}  // namespace
}  // namespace geotrain
