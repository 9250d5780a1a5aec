// The public API owns no global state: simulations on several threads of one
// process at once each give what they give alone, bit for bit (flow-model runs
// concurrently, a packet-level ns-3 run beside them holding ns-3's simulator).
// A learner written outside geotrain, registered through the API, is chosen
// and trained like a built-in one.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <thread>
#include <vector>

#include "api/catalog.h"
#include "api/runs.h"
#include "api/scenarios.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::source_path;

// Everything a run reports but its wall-clock time.
nlohmann::json outputs(const RunResult& r) {
  nlohmann::json j = summary_json(r);
  j.erase("wall_time_s");
  nlohmann::json rows = nlohmann::json::array();
  for (const TimelineRow& t : r.timeline) {
    nlohmann::json row = {
        {"time_s", t.time_s}, {"round", t.round}, {"loss", t.loss}, {"wan", t.net.wan_bytes}, {"samples", t.samples}};
    for (double m : t.metrics) row["metrics"].push_back(m);
    rows.push_back(row);
  }
  j["timeline"] = rows;
  return j;
}

TEST(Api, SimulationsRunAtOnceInOneProcessEachGiveTheirSingleRunsResults) {
  struct Run {
    std::vector<std::string> sets;
    int threads;
  };
  const std::vector<Run> runs = {
      {{"network.model=flow", "stop.rounds=30"}, 1},
      {{"network.model=flow", "stop.rounds=30", "architecture=flat", "seed=2"}, 2},
      {{"network.model=flow", "stop.rounds=20", "policy={\"kind\":\"asp\"}", "seed=3"}, 1},
      {{"network.model=ns3", "stop.rounds=20"}, 1},
  };
  const auto run = [](const Run& r) {
    sim::SimOptions opt;
    opt.threads = r.threads;
    return outputs(sim::run_simulation(load_scenario(source_path("scenarios/quickstart.json"), r.sets), opt));
  };
  std::vector<nlohmann::json> alone;
  for (const Run& r : runs) alone.push_back(run(r));
  ASSERT_NE(alone[0], alone[1]) << "the runs must differ, or a mix-up would go unseen";
  ASSERT_NE(alone[0], alone[2]);

  std::vector<nlohmann::json> together(runs.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < runs.size(); ++i) threads.emplace_back([&, i] { together[i] = run(runs[i]); });
  for (auto& t : threads) t.join();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    EXPECT_EQ(together[i], alone[i]) << "run " << i << " alone and beside the others";
    EXPECT_GT(together[i]["rounds"].get<int>(), 0);
  }
}

// Every network model the loader accepts has a model in sim/, and only those.
TEST(Api, EveryRegisteredNetworkModelCanBeMade) {
  ASSERT_FALSE(network_model_registry().empty());
  for (const NetworkModelInfo& m : network_model_registry())
    EXPECT_TRUE(sim::can_make_network_model(m.doc.name)) << m.doc.name;
  EXPECT_FALSE(sim::can_make_network_model("carrier-pigeon"));
}

// A learner no geotrain file knows: nearest class centroid. Its one block holds
// a centroid per class; a step moves each centroid by the gradient of half the
// squared distance to its samples, so the scenario's optimiser converges it.
class CentroidLearner : public Learner {
 public:
  CentroidLearner(int classes, int features, double scale) : classes_(classes), features_(features), scale_(scale) {}
  std::string name() const override { return "test-centroid"; }
  ParamSet init(std::uint64_t) const override {
    return {ParamBlock(0, Eigen::VectorXf::Zero(Eigen::Index(classes_) * features_))};
  }
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64&,
                      ParamSet* update) const override {
    Eigen::VectorXf g = Eigen::VectorXf::Zero(p[0].values.size());
    double loss = 0;
    for (int i : batch) {
      const auto c = p[0].values.segment(Eigen::Index(train.y[i]) * features_, features_);
      const Eigen::VectorXf d = c - train.x.col(i);
      g.segment(Eigen::Index(train.y[i]) * features_, features_) += float(scale_) * d;
      loss += 0.5 * d.squaredNorm();
    }
    g /= float(batch.size());
    *update = {ParamBlock(0, std::move(g))};
    return loss / double(batch.size());
  }
  double train_flops_per_sample() const override { return 3.0 * features_; }
  const std::vector<MetricInfo>& metrics() const override {
    static const std::vector<MetricInfo> m = {
        {"test_accuracy", true, "share of test samples nearest their class's centroid"}};
    return m;
  }
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override {
    int right = 0;
    for (int i = 0; i < test.size(); ++i) {
      int best = 0;
      float best_d = INFINITY;
      for (int c = 0; c < classes_; ++c) {
        const float d = (p[0].values.segment(Eigen::Index(c) * features_, features_) - test.x.col(i)).squaredNorm();
        if (d < best_d) best_d = d, best = c;
      }
      right += best == test.y[i];
    }
    return {double(right) / test.size()};
  }

 private:
  int classes_, features_;
  double scale_;
};

LearnerInfo centroid_info() {
  LearnerInfo l;
  l.doc = {"test-centroid", "nearest class centroid (registered by a test)", {}};
  l.family = "registered";
  l.data = {"labelled"};
  l.params = {{"scale", 1.0, 0.01, 10.0, false, "gradient scale"}};
  l.metrics = {{"test_accuracy", true, "share of test samples nearest their class's centroid"}};
  l.make = [](const ModelSpec& m, const TrainTest& d) -> std::unique_ptr<Learner> {
    return std::make_unique<CentroidLearner>(d.train.classes, d.train.features(), m.params.at("scale"));
  };
  return l;
}

TEST(Api, ARegisteredLearnerIsChosenByNameAndTrainsLikeABuiltInOne) {
  const std::vector<std::string> sets = {"network.model=flow", "model={\"kind\":\"test-centroid\",\"scale\":0.5}",
                                         "stop.rounds=40", "stop.target_accuracy=0.99"};
  const std::string path = source_path("scenarios/regress/flat-synthetic.json");
  try {
    load_scenario(path, sets);
    FAIL() << "an unregistered kind was accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/model/kind"), std::string::npos) << e.what();
  }
  register_learner(centroid_info());
  EXPECT_NE(find_learner("test-centroid"), nullptr);
  EXPECT_THROW(register_learner(centroid_info()), std::invalid_argument);  // the name is taken
  LearnerInfo builtin_name = centroid_info();
  builtin_name.doc.name = "softmax";
  EXPECT_THROW(register_learner(builtin_name), std::invalid_argument);
  LearnerInfo bad_name = centroid_info();
  bad_name.doc.name = "Has Spaces";
  EXPECT_THROW(register_learner(bad_name), std::invalid_argument);
  LearnerInfo no_factory = centroid_info();
  no_factory.doc.name = "test-no-factory";
  no_factory.make = nullptr;
  EXPECT_THROW(register_learner(no_factory), std::invalid_argument);

  // Its parameter is read and checked by the loader as a built-in's is.
  EXPECT_THROW(load_scenario(path, {"model={\"kind\":\"test-centroid\",\"scale\":50}"}), ConfigError);
  const Scenario sc = load_scenario(path, sets);
  EXPECT_EQ(sc.model.params.at("scale"), 0.5);
  sim::SimOptions opt;
  const RunResult r = sim::run_simulation(sc, opt);
  const nlohmann::json s = summary_json(r);
  ASSERT_FALSE(r.timeline.empty());
  // Six Gaussian classes: the untrained centroids (all at zero) name one class
  // for every sample; trained, they separate most.
  const TrainingJob job(sc);
  const double untrained = job.learner().evaluate(job.learner().init(sc.seed), job.data().test)[0];
  EXPECT_LT(untrained, 0.3);
  EXPECT_GT(r.timeline.back().metrics[0], untrained + 0.4) << s.dump();
  EXPECT_EQ(outputs(sim::run_simulation(sc, opt)), outputs(r)) << "a registered learner's run is deterministic too";
}

}  // namespace
}  // namespace geotrain
