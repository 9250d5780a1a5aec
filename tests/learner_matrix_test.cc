// Every learner under every policy, every push codec it declares and every scheduler, on the
// fake runtime with tiny data and a few rounds: each runs to its rounds with a
// finite model, finite metrics and a finite training loss; and every policy
// or codec a learner does not declare is refused by the loader, which the
// command line turns into exit 2.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/codec/codec_registry.h"
#include "core/config/learner_fit.h"
#include "core/learners/gd/cnn.h"
#include "core/learners/learner_registry.h"
#include "core/payload/params_file.h"
#include "core/policies/policy_registry.h"
#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

// A random feature classifier for 8x8 images: the GAN's metrics need one of the data's shape.
std::string tiny_feature_classifier() {
  const std::string path = ::testing::TempDir() + "/geotrain-matrix-features.bin";
  std::mt19937_64 rng(3);
  std::normal_distribution<float> n(0, 0.3f);
  ParamSet p = {
      {0, Eigen::VectorXf(64 * 8)}, {1, Eigen::VectorXf(8)}, {2, Eigen::VectorXf(8 * 4)}, {3, Eigen::VectorXf(4)}};
  for (auto& b : p)
    for (Eigen::Index i = 0; i < b.values.size(); ++i) b.values[i] = n(rng);
  write_params_file(path, p);
  return path;
}

// A tiny CNN's parameters for 8x8 images of 4 classes: the incremental learners' pre-trained base.
std::string tiny_cnn_base() {
  const std::string path = ::testing::TempDir() + "/geotrain-matrix-cnn.bin";
  write_params_file(path, Cnn(64, 4, 2, 2, 4).init(5));
  return path;
}

// The learner as a tiny model, on tiny data of the kind it learns from.
std::vector<std::string> tiny(const std::string& learner) {
  const std::string images = R"(dataset={"kind":"synthetic","features":64,"classes":4,"train":256,"test":64})";
  if (learner == "mf")
    // (A step of 64 ratings is a few thousand flops: at the quickstart's 5 GFLOPS asp's workers would take
    // millions of steps per WAN round trip. Slower workers keep the test short.)
    return {R"(model={"kind":"mf","rank":2})",
            R"(dataset={"kind":"ratings","users":20,"items":20,"train":400,"test":100})",
            "topology.dcs.1.worker_gflops=0.001", "topology.dcs.2.worker_gflops=0.001"};
  if (learner == "ranknet" || learner == "listnet")
    return {R"(model={"kind":")" + learner + R"(","hidden":[4]})",
            R"(dataset={"kind":"ranking","train_queries":24,"test_queries":6,"docs":5,"features":6})", "batch_size=2"};
  if (learner == "lambdamart" || learner == "gbrank" || learner == "rankboost" || learner == "adarank")
    return {R"(model={"kind":")" + learner +
                (learner == "rankboost" || learner == "adarank" ? R"(","rounds":4})" : R"(","depth":2})"),
            R"(dataset={"kind":"ranking","train_queries":24,"test_queries":6,"docs":5,"features":6})"};
  if (learner == "a2c")
    return {R"(model={"kind":"a2c","hidden":4})", R"(dataset={"kind":"cartpole","train_envs":8,"test_episodes":2})",
            "batch_size=1"};
  if (learner == "cnn") return {R"(model={"kind":"cnn","conv1":2,"conv2":2,"dense":4})", images, "batch_size=4"};
  if (learner == "rnn") return {R"(model={"kind":"rnn","steps":8,"hidden":4})", images, "batch_size=4"};
  if (learner == "autoencoder") return {R"(model={"kind":"autoencoder","hidden":[8,4]})", images, "batch_size=4"};
  if (learner == "gan")
    return {R"(model={"kind":"gan","noise":4,"hidden":4,"classifier":")" + tiny_feature_classifier() + R"("})", images,
            "batch_size=4"};
  if (learner == "random_forest")
    return {R"(model={"kind":"random_forest","depth":3,"trees_per_round":2,"bins":4,"sketch_rows":32})", images};
  if (learner == "knn") return {R"(model={"kind":"knn","k":3,"query_batch":8})", images};
  if (learner == "feature_extraction" || learner == "fine_tuning")
    return {R"(model={"kind":")" + learner + R"(","base":")" + tiny_cnn_base() + R"("})", images, "batch_size=4",
            "topology.dcs.1.worker_gflops=0.001", "topology.dcs.2.worker_gflops=0.001"};  // (a head's step is cheap)
  if (learner == "svm") return {R"(model={"kind":"svm"})", images, "batch_size=1000"};
  if (learner == "svr")
    return {R"(model={"kind":"svr","rff":16})", R"(dataset={"kind":"friedman1","train":200,"test":50})",
            "batch_size=1000"};
  if (learner == "ranksvm")
    return {R"(model={"kind":"ranksvm","rff":16})",
            R"(dataset={"kind":"ranking","train_queries":24,"test_queries":6,"docs":5,"features":6})",
            "batch_size=1000"};
  if (learner == "mlp") return {R"(model={"kind":"mlp","hidden":[8]})", images, "batch_size=4"};
  if (learner == "profile") return {R"(model={"kind":"profile","profile":"softmax-fashion"})", images, "batch_size=4"};
  return {R"(model={"kind":")" + learner + R"("})", images, "batch_size=4"};
}

Scenario scenario(const std::string& learner, const std::string& arch, std::vector<std::string> more) {
  std::vector<std::string> sets = tiny(learner);
  sets.insert(sets.end(), {R"(stop={"rounds":3})", "eval.every_rounds=3"});
  sets.insert(sets.end(), more.begin(), more.end());
  return load_scenario(testing::source_path("scenarios/quickstart.json"), [&] {
    std::vector<std::string> all = {"architecture=" + arch};
    all.insert(all.end(), sets.begin(), sets.end());
    return all;
  }());
}

void runs(const std::string& learner, const std::string& what, const Scenario& sc) {
  testing::FakeJob fj(sc);
  fj.run();
  const auto& rows = fj.monitor().timeline();  // (the monitor, not the role: a layer may wrap the global server)
  ASSERT_FALSE(rows.empty()) << learner << " " << what;
  EXPECT_GE(rows.back().round, 3) << learner << " " << what;
  for (const auto& b : fj.monitor().last_evaluated()) ASSERT_TRUE(b.values.allFinite()) << learner << " " << what;
  EXPECT_TRUE(std::isfinite(rows.back().loss)) << learner << " " << what;
  EXPECT_EQ(rows.back().metrics.size(), fj.job().learner().metrics().size()) << learner << " " << what;
  for (double m : rows.back().metrics) EXPECT_TRUE(std::isfinite(m)) << learner << " " << what;
}

class EveryLearner : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryLearner, RunsUnderEveryPolicyAndCodecItDeclaresAndIsRefusedTheRest) {
  const std::string name = GetParam();
  const LearnerInfo& l = *find_entry(builtin_learners(), name);
  const auto policies = accepted_policies(l);
  const auto codecs = accepted_codecs(l);
  EXPECT_FALSE(policies.empty());
  for (const auto& p : policy_registry()) {
    std::vector<std::string> sets = {"policy={\"kind\":\"" + p.name + "\"}"};
    for (const char* k : {"h", "k1", "k2"})  // short local rounds
      for (const auto& q : p.params)
        if (q.name == k) sets.push_back(std::string("policy.") + k + "=2");
    const std::string arch = p.architectures.front();
    if (std::find(policies.begin(), policies.end(), p.name) == policies.end()) {
      EXPECT_THROW(scenario(name, arch, sets), ConfigError) << name << " under " << p.name;
      continue;
    }
    if (l.caps.metrics_modelled) runs(name, "under " + p.name, scenario(name, arch, sets));
  }
  for (const auto& c : codec_registry()) {
    const std::vector<std::string> sets = {R"(compression={"wan_push":{"kind":")" + c.doc.name +
                                           R"("},"lan_push":{"kind":")" + c.doc.name + R"("},"dense_below":0})"};
    if (std::find(codecs.begin(), codecs.end(), c.doc.name) == codecs.end()) {
      EXPECT_THROW(scenario(name, "hips", sets), ConfigError) << name << " with " << c.doc.name;
      continue;
    }
    if (l.caps.metrics_modelled) runs(name, "with " + c.doc.name, scenario(name, "hips", sets));
  }
  // Schedulers relay the model and merge pushes on the way by the learner's rules: every learner runs under them.
  if (l.caps.metrics_modelled)
    for (const char* s : {"tsengine", "graph"})
      runs(name, std::string("scheduled by ") + s,
           scenario(name, "hips", {std::string("schedule.wan.kind=") + s, std::string("schedule.lan.kind=") + s}));
}

// Every message of a run within what the learner declares (Learner::footprint):
// real mode's frame limit for authenticated peers is derived from it, so a
// learner that sends more than it declares would have its links closed.
TEST_P(EveryLearner, SendsNoMoreThanItsFootprintDeclares) {
  const std::string name = GetParam();
  const LearnerInfo& l = *find_entry(builtin_learners(), name);
  if (!l.caps.metrics_modelled) GTEST_SKIP() << name << " is a workload profile: stand-ins, simulation only";
  for (const std::string arch : {"hips", "flat"}) {
    const Scenario sc = scenario(name, arch, {R"(stop={"rounds":8})"});
    testing::FakeJob fj(sc);
    const LearnerFootprint& f = fj.job().footprint();
    std::uint64_t largest = 0, messages = 0;
    fj.world().observe([&](const Message& m) {
      if (!m.payload) return;
      ++messages;
      std::uint64_t floats = 0;
      for (const auto& b : m.payload->blocks) floats += wire_elements(b);
      for (const auto& c : m.payload->coded) floats += c.n;
      const bool push = m.kind == MsgKind::kPush;
      EXPECT_LE(floats, push ? f.update_floats : f.model_floats)
          << name << " (" << arch << "): a " << to_string(m.kind) << " of round " << m.round;
      EXPECT_LE(m.payload->blocks.size() + m.payload->coded.size(), push ? f.update_blocks : f.model_blocks) << name;
      largest = std::max(largest, m.wire_bytes);
    });
    fj.run();
    EXPECT_GT(messages, 0u) << name;
    EXPECT_LE(largest, fj.job().max_message_bytes()) << name << " (" << arch << ")";
  }
}

std::vector<std::string> builtin_learner_names() { return entry_names(builtin_learners()); }

// A local server restarted mid-run under every learner its round applies
// (Apply::kLearner: histograms, sketches, centroid sums, candidate lists, dual
// updates): it serves its workers the whole model afresh (their copies are
// not its own) and the job ends where an undisturbed one does, with the same
// model where the learner's work does not depend on who saw which round.
class EveryLearnerAppliedLearner : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryLearnerAppliedLearner, ARestartedLocalServerRejoinsAtAConsistentPhase) {
  const std::string name = GetParam();
  // A sparse pull codec: pulls carry changes from each child's copy, which a restarted server must not assume.
  const std::vector<std::string> sets = {R"(stop={"rounds":10})",
                                         R"(compression={"lan_pull":{"kind":"sparse"},"wan_pull":{"kind":"sparse"},)"
                                         R"("dense_below":0})"};
  const Scenario sc = scenario(name, "hips", sets);
  testing::FakeJob calm(sc);
  calm.run();
  const auto& rows = calm.monitor().timeline();
  ASSERT_FALSE(rows.empty()) << name;
  NodeId ls = -1;
  for (const auto& n : calm.job().deployment().nodes)
    if (n.role == Role::kLocalServer) ls = n.id;
  ASSERT_GE(ls, 0);

  testing::FakeJob fj(sc);
  fj.run(calm.world().now() / 2);
  fj.restart(ls);
  ASSERT_NO_THROW(fj.run()) << name;
  const auto& after = fj.monitor().timeline();
  ASSERT_FALSE(after.empty()) << name;
  EXPECT_EQ(after.back().round, rows.back().round) << name;
  ASSERT_EQ(after.back().metrics.size(), rows.back().metrics.size());
  for (std::size_t i = 0; i < rows.back().metrics.size(); ++i) {
    const double a = after.back().metrics[i], b = rows.back().metrics[i];
    if (!(std::isnan(a) && std::isnan(b))) {
      EXPECT_EQ(a, b) << name << ": the restart changed " << fj.job().learner().metrics()[i].name;
    }
  }
}

std::vector<std::string> applied_by_learner() {
  std::vector<std::string> out;
  for (const auto& l : builtin_learners())
    if (l.caps.apply == Apply::kLearner && l.caps.real_mode) out.push_back(l.doc.name);
  return out;
}
INSTANTIATE_TEST_SUITE_P(All, EveryLearnerAppliedLearner, ::testing::ValuesIn(applied_by_learner()),
                         [](const auto& info) { return info.param; });
INSTANTIATE_TEST_SUITE_P(All, EveryLearner, ::testing::ValuesIn(builtin_learner_names()),
                         [](const auto& info) { return info.param; });

TEST(LearnerMatrix, TheCommandLineRefusesADeclaredMisfitWithExitTwoAndThePath) {
  const auto r = testing::run_geotrain("sim " + testing::source_path("scenarios/scale-8x8-resnet50.json") +
                                       " --set policy.kind=gaia -q -o " + ::testing::TempDir() + "/geotrain-misfit");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/policy/kind"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace geotrain
