// The learners whose statistics merge exactly: the histogram tree learners
// (core/learners/ensemble/: distributed growth gives the same trees, split for
// split, as one worker with all the data; histogram subtraction changes the
// bytes and not the trees; the loader refuses what trees cannot run under),
// and KNN (the same predictions as one machine's brute force).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "core/job/job.h"
#include "core/learners/ensemble/hist_trees.h"
#include "core/learners/mapreduce/knn.h"
#include "core/payload/merge.h"
#include "sim/sim_runner.h"
#include "test_util.h"

namespace geotrain {
namespace {

const char* kLabelled = R"(dataset={"kind":"synthetic","features":12,"classes":3,"train":1500,"test":300})";
const char* kRanking = R"(dataset={"kind":"ranking","train_queries":120,"test_queries":40,"docs":12,"features":8})";

Scenario trees_scenario(const std::string& model, const std::string& dataset, std::vector<std::string> more = {}) {
  std::vector<std::string> sets = {"model=" + model, dataset, "batch_size=1000000", R"(stop={"rounds":200})",
                                   "eval.every_rounds=1"};
  sets.insert(sets.end(), more.begin(), more.end());
  return testing::small_scenario("hips", sets);
}

// One round by hand: each shard's update, merged as HiPS does (two local
// servers, then the global server), applied.
void round_of(const Learner& l, ParamSet& model, const Dataset& train, const std::vector<std::vector<int>>& shards) {
  std::vector<Payload> up;
  std::mt19937_64 rng(7);
  for (const auto& s : shards) {
    Payload p;
    l.local_update(model, train, s, rng, &p.blocks);
    p.contributors = 1;
    up.push_back(std::move(p));
  }
  const auto rules = l.block_rules();
  while (up.size() > 1) {  // pairwise, the last shard first: another order than one worker's
    Payload last = std::move(up.back());
    up.pop_back();
    merge(up.back(), last, rules);
  }
  l.apply(model, up[0].blocks, up[0].contributors);
}

bool same_model(const ParamSet& a, const ParamSet& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].key != b[i].key || a[i].values.size() != b[i].values.size() || a[i].values != b[i].values) return false;
  return true;
}

class ExactGrowth : public ::testing::TestWithParam<const char*> {};

TEST_P(ExactGrowth, FourUnevenShardsGrowTheSameTreesAsOneWorker) {
  const std::string name = GetParam();
  const bool ranking = name == "lambdamart" || name == "gbrank";
  std::string model = R"({"kind":")" + name + R"(","depth":4,"iterations":3,"bins":16,"sketch_rows":512)";
  if (name == "xgboost") model += R"(,"subsample":0.7,"colsample":0.5)";
  model += "}";
  const TrainingJob job(trees_scenario(model, ranking ? kRanking : kLabelled));
  const Learner& l = job.learner();
  const Dataset& train = job.data().train;
  std::vector<int> all(std::size_t(train.size()));
  std::iota(all.begin(), all.end(), 0);
  std::vector<int> shuffled = all;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(3));
  const std::size_t n = shuffled.size();  // shards of 10%, 20%, 30%, 40%
  std::vector<std::vector<int>> shards;
  std::size_t at = 0;
  for (std::size_t part : {n / 10, n / 5, 3 * n / 10, n - n / 10 - n / 5 - 3 * n / 10}) {
    shards.emplace_back(shuffled.begin() + std::ptrdiff_t(at), shuffled.begin() + std::ptrdiff_t(at + part));
    at += part;
  }
  ParamSet one = l.init(1), four = l.init(1);
  int rounds = 0;
  while (!l.finished(one) && rounds < 100) {
    round_of(l, one, train, {all});
    round_of(l, four, train, shards);
    ++rounds;
    ASSERT_TRUE(same_model(one, four)) << name << ": the models part at round " << rounds;
  }
  EXPECT_TRUE(l.finished(four));
  const auto m = l.evaluate(four, job.data().test);
  const int trees = int(m[m.size() - 2]);
  EXPECT_EQ(trees, 3 * (ranking ? 1 : 3)) << "three iterations of one tree per output";
  EXPECT_LE(rounds, 1 + 3 * 4) << "a sketch round, then at most a round per level";
  if (ranking)
    EXPECT_GT(m[0], 0.6) << "NDCG@10 well above a random ranker's (about 0.4 on this data)";
  else
    EXPECT_GT(m[0], 0.6) << "accuracy well above chance (1/3)";
}

// KNN on four uneven shards merged as HiPS does answers every query as one
// machine's brute force over the whole training set does.
TEST(Knn, ShardedCandidatesVoteAsBruteForceDoes) {
  const TrainingJob job(
      trees_scenario(R"({"kind":"knn","k":5,"query_batch":32})",
                     R"(dataset={"kind":"synthetic","features":12,"classes":4,"train":900,"test":100,"noise":2})"));
  const auto& knn = dynamic_cast<const Knn&>(job.learner());
  const Dataset& train = job.data().train;
  std::vector<int> all(std::size_t(train.size()));
  std::iota(all.begin(), all.end(), 0);
  std::vector<int> shuffled = all;
  std::shuffle(shuffled.begin(), shuffled.end(), std::mt19937_64(5));
  const std::vector<std::vector<int>> shards = {{shuffled.begin(), shuffled.begin() + 100},
                                                {shuffled.begin() + 100, shuffled.begin() + 300},
                                                {shuffled.begin() + 300, shuffled.begin() + 600},
                                                {shuffled.begin() + 600, shuffled.end()}};
  ParamSet model = knn.init(1);
  int rounds = 0;
  while (!knn.finished(model) && rounds++ < 10) round_of(knn, model, train, shards);
  EXPECT_EQ(rounds, 4) << "100 queries, 32 a round";
  const Eigen::VectorXf& pred = block_of(model, Knn::kPredictions);
  const Dataset& test = job.data().test;
  int right = 0;
  for (Eigen::Index q = 0; q < test.x.cols(); ++q) {
    const Eigen::VectorXf query = test.x.col(q);
    const int brute = knn.vote(knn.nearest(query.data(), 1, train, all)[0].data());
    ASSERT_EQ(int(pred[q]), brute) << "query " << q;
    right += brute == test.y[std::size_t(q)];
  }
  const auto m = knn.evaluate(model, test);
  EXPECT_DOUBLE_EQ(m[0], right / 100.0);
  EXPECT_EQ(m[1], 100);
  EXPECT_GT(m[0], 0.5) << "well above chance (1/4)";
}

INSTANTIATE_TEST_SUITE_P(Boosters, ExactGrowth, ::testing::Values("xgboost", "gbdt", "lambdamart", "gbrank"));

// The same exactness through the runtimes: 2 DCs x 2 workers in ns-3 give one
// worker's trees (every metric of every evaluation equal, losses to the bit),
// and only the smaller child's histograms travelling changes the bytes, not the trees.
TEST(HistogramTrees, TwoDataCentresEqualOneWorkerAndSubtractionHalvesTheBytes) {
  const std::string model = R"(model={"kind":"xgboost","depth":4,"iterations":4,"bins":16})";
  const RunResult dist = sim::run_simulation(trees_scenario(model.substr(6), kLabelled));
  const RunResult one =
      sim::run_simulation(trees_scenario(model.substr(6), kLabelled, {"topology=../topologies/single.json"}));
  const RunResult whole = sim::run_simulation(
      trees_scenario(R"({"kind":"xgboost","depth":4,"iterations":4,"bins":16,"subtraction":0})", kLabelled));
  ASSERT_EQ(dist.error, "");
  ASSERT_EQ(one.error, "");
  ASSERT_EQ(whole.error, "");
  EXPECT_EQ(dist.rounds, 1 + 4 * 4);
  ASSERT_EQ(dist.timeline.size(), one.timeline.size());
  for (std::size_t i = 0; i < dist.timeline.size(); ++i) {
    EXPECT_EQ(dist.timeline[i].metrics, one.timeline[i].metrics) << "evaluation " << i;
    EXPECT_EQ(dist.timeline[i].metrics, whole.timeline[i].metrics) << "evaluation " << i;
  }
  EXPECT_EQ(dist.timeline.back().metrics[2], 12.0) << "trees";
  EXPECT_GT(dist.timeline.back().metrics[0], 0.6);
  // The histograms: what crosses the WAN upwards after the first round (the binning sample).
  const auto levels = [](const RunResult& r) {
    return double(r.timeline.back().streams.at("wan_push").sent_bytes -
                  r.timeline.front().streams.at("wan_push").sent_bytes);
  };
  const double with = levels(dist), without = levels(whole);
  std::printf("WAN histogram bytes: %.0f without subtraction, %.0f with (%.2fx)\n", without, with, without / with);
  EXPECT_GT(without / with, 1.6);
}

// A forest only grows: with a sparse pull codec each pull carries the change from the child's copy (the new
// and the decided nodes), not the whole forest; the trees are the same.
TEST(HistogramTrees, SparsePullsCarryOnlyTheForestsChange) {
  const std::string model = R"({"kind":"lambdamart","depth":3,"iterations":20,"bins":16})";
  const RunResult whole = sim::run_simulation(trees_scenario(model, kRanking));
  const RunResult sparse = sim::run_simulation(trees_scenario(
      model, kRanking, {R"(compression={"wan_pull":{"kind":"sparse"},"lan_pull":{"kind":"sparse"},"dense_below":0})"}));
  ASSERT_EQ(whole.error, "");
  ASSERT_EQ(sparse.error, "");
  EXPECT_EQ(whole.timeline.back().metrics, sparse.timeline.back().metrics);
  const double w = whole.compression["wan_pull"]["sent_bytes"], s = sparse.compression["wan_pull"]["sent_bytes"];
  std::printf("WAN pull bytes: %.0f whole, %.0f as changes\n", w, s);
  EXPECT_LT(s * 5, w);
}

TEST(HistogramTrees, TheLoaderRefusesWhatTreesCannotRunUnder) {
  const std::string model = R"({"kind":"gbdt","depth":3,"iterations":2})";
  const auto refused = [&](std::vector<std::string> sets, const std::string& path) {
    try {
      trees_scenario(model, kLabelled, sets);
      ADD_FAILURE() << "accepted: " << sets[0];
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  };
  refused({"policy.kind=asp"}, "/policy/kind");
  refused({"compression.wan_push.kind=topk"}, "/compression/wan_push/kind");
  refused({"compression.wan_pull.kind=fp16"}, "/compression/wan_pull/kind");
  refused({R"(dgt={"mode":1})"}, "/dgt");
  // Histograms may travel as fp16: the run works, the trees may differ by the rounding.
  const RunResult r = sim::run_simulation(trees_scenario(model, kLabelled, {"compression.wan_push.kind=fp16"}));
  ASSERT_EQ(r.error, "");
  EXPECT_GT(r.timeline.back().metrics[0], 0.6);
}

}  // namespace
}  // namespace geotrain
