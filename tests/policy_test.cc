// Sync policies: the registry (and the schema held to it), the loader's
// validation of `policy`, and each policy's defining property on the fake
// runtime.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/data/dataset_registry.h"
#include "core/json/json_reader.h"
#include "core/learners/learner_registry.h"
#include "core/optim/optimizer_registry.h"
#include "core/policies/policy_registry.h"
#include "core/roles/global_server.h"
#include "core/roles/worker.h"
#include "core/testing/fake_job.h"
#include "core/topology/deployment.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

TEST(PolicyRegistry, TheSchemaNamesExactlyTheRegisteredPoliciesAndTheirParameters) {
  const auto schema = load_json_file(testing::source_path("scenarios/scenario.schema.json"));
  const auto& policy = schema["properties"]["policy"];
  std::set<std::string> in_schema, registered;
  for (const auto& k : policy["properties"]["kind"]["enum"]) in_schema.insert(k.get<std::string>());
  for (const auto& k : policy_kinds()) registered.insert(k);
  EXPECT_EQ(in_schema, registered);
  std::set<std::string> schema_params, registry_params;
  for (const auto& [k, v] : policy["properties"].items()) {
    (void)v;
    if (k != "kind") schema_params.insert(k);
  }
  for (const auto& p : policy_registry())
    for (const auto& q : p.params) registry_params.insert(q.name);
  EXPECT_EQ(schema_params, registry_params);
}

// Each kind the schema allows, with the parameters it allows for that kind.
std::map<std::string, std::set<std::string>> schema_kinds(const nlohmann::json& object) {
  std::map<std::string, std::set<std::string>> out;
  auto branch = [&](const nlohmann::json& b) {
    std::set<std::string> props;
    for (const auto& [p, v] : b["properties"].items())
      if (p != "kind") props.insert(p);
    const auto& kind = b["properties"]["kind"];
    if (kind.contains("const")) out[kind["const"]] = props;
    for (const auto& k : kind.value("enum", nlohmann::json::array())) out[k.get<std::string>()] = props;
  };
  if (object.contains("oneOf"))
    for (const auto& b : object["oneOf"]) branch(b);
  else
    branch(object);
  return out;
}

template <class Entry>
void expect_schema_matches(const nlohmann::json& object, const std::vector<Entry>& registry, const char* what) {
  const auto kinds = schema_kinds(object);
  std::set<std::string> in_schema, registered;
  for (const auto& [k, props] : kinds) in_schema.insert(k);
  for (const auto& e : registry) registered.insert(e.doc.name);
  EXPECT_EQ(in_schema, registered) << what;
  for (const auto& e : registry) {
    if (!kinds.count(e.doc.name)) continue;
    std::set<std::string> params;
    for (const auto& p : e.doc.params) params.insert(p.name);
    const auto& allowed = kinds.at(e.doc.name);
    if (object.contains("oneOf"))  // one branch per kind: exactly its parameters
      EXPECT_EQ(params, allowed) << what << " " << e.doc.name;
    else  // one object for every kind: each kind's parameters are among its properties
      for (const auto& p : params) EXPECT_TRUE(allowed.count(p)) << what << " " << e.doc.name << " " << p;
  }
}

TEST(Registries, TheSchemaNamesExactlyTheRegisteredComponentsAndTheirParameters) {
  const auto schema = load_json_file(testing::source_path("scenarios/scenario.schema.json"));
  const auto& props = schema["properties"];
  struct DocOnly {
    ComponentDoc doc;
  };
  std::vector<DocOnly> learners;  // every learner's keys: its own and its numeric parameters
  for (const auto& l : builtin_learners()) learners.push_back({learner_doc(l)});
  expect_schema_matches(props["model"], learners, "model");
  expect_schema_matches(props["optimizer"], optimizer_registry(), "optimizer");
  expect_schema_matches(props["dataset"], dataset_registry(), "dataset");
  std::set<std::string> archs(props["architecture"]["enum"].begin(), props["architecture"]["enum"].end());
  const auto names = entry_names(architecture_registry());
  EXPECT_EQ(archs, std::set<std::string>(names.begin(), names.end()));
}

TEST(PolicyRegistry, FsaIsBspAndEveryPolicyBuildsItsObject) {
  ASSERT_NE(find_policy("fsa"), nullptr);
  EXPECT_EQ(find_policy("fsa")->name, "bsp");
  EXPECT_EQ(find_policy("nonesuch"), nullptr);
  for (const auto& p : policy_registry()) {
    PolicyParams params;
    for (const auto& q : p.params) params[q.name] = q.default_value;
    for (Role r : {Role::kWorker, Role::kLocalServer, Role::kGlobalServer, Role::kStateServer})
      EXPECT_NE(p.make(params, r), nullptr) << p.name;
    EXPECT_FALSE(p.description.empty()) << p.name;
    EXPECT_FALSE(p.architectures.empty()) << p.name;
  }
}

std::string load_error(const std::vector<std::string>& sets) {
  try {
    testing::small_scenario("flat", sets);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(PolicyConfig, BadPoliciesAreRefusedNamingTheJsonPath) {
  EXPECT_NE(load_error({R"(policy={"kind":"nonesuch"})"}).find("/policy/kind"), std::string::npos);
  EXPECT_NE(load_error({R"(policy={"kind":"bsp","s":3})"}).find("/policy"), std::string::npos);
  const std::string hips = load_error({"architecture=hips", R"(policy={"kind":"ssp"})"});
  EXPECT_NE(hips.find("/policy/kind"), std::string::npos) << hips;
  EXPECT_NE(hips.find("flat"), std::string::npos) << hips;
  EXPECT_EQ(load_error({R"(policy={"kind":"fsa"})"}), "");
  EXPECT_EQ(testing::small_scenario("flat", {R"(policy={"kind":"fsa"})"}).policy, "bsp");
}

// ASP never blocks a worker, and the server applies each push as it arrives;
// under hips each DC has one push on the WAN at a time.
TEST(Asp, NoWorkerEverWaitsAndEveryPushIsApplied) {
  for (const char* arch : {"flat", "hips"}) {
    SCOPED_TRACE(arch);
    testing::FakeJob fj(testing::small_scenario(
        arch, {R"(policy={"kind":"asp"})", "stop.rounds=200", "topology.dcs.2.worker_gflops=0.01"}));
    fj.run();
    const Deployment& dep = fj.job().deployment();
    std::int64_t steps = 0, fewest = 1 << 30, most = 0;
    for (const auto& n : dep.nodes) {
      if (n.role != Role::kWorker) continue;
      const WorkerStats s = fj.role<Worker>(n.id).stats_at(fj.world().now());
      EXPECT_EQ(s.blocked_ns, 0) << n.name;
      steps += s.steps;
      fewest = std::min(fewest, s.steps);
      most = std::max(most, s.steps);
    }
    const auto& gs = fj.role<GlobalServer>(dep.global_server);
    EXPECT_EQ(gs.rounds(), 200);
    EXPECT_GE(steps, gs.rounds()) << "every applied round is one push (of one or more steps)";
    std::uint64_t to_server = 0;
    for (NodeId c : dep.nodes[std::size_t(dep.global_server)].children)
      to_server += fj.world().sent(c, dep.global_server).messages;
    EXPECT_LE(to_server, 2u * std::uint64_t(gs.rounds() + 4)) << "a push and a pull per applied round, one in flight";
    EXPECT_GT(most, 2 * fewest) << "fast workers are not held back by slow ones";
    const auto report = gs.report(fj.world().now());
    EXPECT_GT(report["staleness_max"].get<int>(), 0) << "pushes from models several rounds old are applied";
    EXPECT_GT(report["staleness_mean"].get<double>(), 0.0);
  }
}

// BSP on the same scenario: every worker steps exactly once per round.
TEST(Bsp, EveryWorkerStepsOncePerRoundAndWaits) {
  testing::FakeJob fj(testing::small_scenario("flat", {"stop.rounds=50", "topology.dcs.2.worker_gflops=0.01"}));
  fj.run();
  const Deployment& dep = fj.job().deployment();
  for (const auto& n : dep.nodes) {
    if (n.role != Role::kWorker) continue;
    const WorkerStats s = fj.role<Worker>(n.id).stats();
    EXPECT_EQ(s.steps, 50) << n.name;
    EXPECT_EQ(s.pushes, 50) << n.name;
  }
  EXPECT_EQ(fj.role<GlobalServer>(dep.global_server).report(fj.world().now())["staleness_max"], 0);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

class StepLog : public Tracer {
 public:
  void record(TimeNs, NodeId node, TraceKind kind, std::int64_t) override {
    if (kind == TraceKind::kStepDone) order.push_back(node);
  }
  std::vector<NodeId> order;  // workers, in the order their steps completed
};

// SSP never lets a worker run more than s steps ahead of the slowest: when a
// worker completes its k-th step, every other has completed at least k - s - 1.
void expect_ssp_bound(int s) {
  StepLog log;
  testing::FakeJob fj(testing::small_scenario("flat", {R"(policy={"kind":"ssp","s":)" + std::to_string(s) + "}",
                                                       "stop.rounds=300", "topology.dcs.2.worker_gflops=0.01"}),
                      &log);
  fj.run();
  std::map<NodeId, std::int64_t> done;
  for (const auto& n : fj.job().deployment().nodes)
    if (n.role == Role::kWorker) done[n.id] = 0;
  std::int64_t worst = 0;
  for (NodeId w : log.order) {
    const std::int64_t k = ++done[w];
    std::int64_t slowest = k;
    for (const auto& [id, c] : done) slowest = std::min(slowest, c);
    worst = std::max(worst, k - slowest);
    EXPECT_LE(k - slowest, s + 1) << "worker " << w << " completed step " << k;
  }
  EXPECT_GE(worst, std::int64_t(s)) << "the fast workers do use their slack";
  std::int64_t blocked = 0;
  for (const auto& [id, c] : done) blocked += fj.role<Worker>(id).stats_at(fj.world().now()).blocked_ns;
  EXPECT_GT(blocked, 0) << "with a 500x slower DC, the fast workers are held";
}

TEST(Ssp, NoWorkerRunsMoreThanSStepsAheadOfTheSlowest) {
  expect_ssp_bound(0);
  expect_ssp_bound(3);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// local_sgd: h local steps per worker per round, one model change per DC
// across the WAN per round; with h = 1 and plain SGD it is bsp (the mean of
// one-step changes is -lr x the mean gradient).
TEST(LocalSgd, EachWorkerTakesHLocalStepsPerRound) {
  for (const char* arch : {"hips", "flat"}) {
    testing::FakeJob fj(testing::small_scenario(arch, {R"(policy={"kind":"local_sgd","h":3})", "stop.rounds=20"}));
    fj.run();
    const Deployment& dep = fj.job().deployment();
    EXPECT_EQ(fj.role<GlobalServer>(dep.global_server).rounds(), 20) << arch;
    for (const auto& n : dep.nodes) {
      if (n.role == Role::kWorker) {
        EXPECT_EQ(fj.role<Worker>(n.id).stats().steps, 3 * 20) << arch << " " << n.name;
      }
    }
  }
}

TEST(LocalSgd, OneLocalSgdStepIsBsp) {
  const std::vector<std::string> sgd = {R"(optimizer={"kind":"sgd","lr":0.1})", "stop.rounds=30"};
  auto with = [&](const std::string& policy) {
    auto sets = sgd;
    sets.push_back(policy);
    testing::FakeJob fj(testing::small_scenario("hips", sets));
    fj.run();
    return fj.role<GlobalServer>(fj.job().deployment().global_server).params();
  };
  const ParamSet bsp = with(R"(policy={"kind":"bsp"})");
  const ParamSet local = with(R"(policy={"kind":"local_sgd","h":1})");
  ASSERT_EQ(bsp.size(), local.size());
  for (std::size_t b = 0; b < bsp.size(); ++b)
    for (Eigen::Index i = 0; i < bsp[b].values.size(); ++i)
      ASSERT_NEAR(bsp[b].values[i], local[b].values[i], 1e-4) << "block " << b << " value " << i;
  const ParamSet h4 = with(R"(policy={"kind":"local_sgd","h":4})");
  float differs = 0;
  for (std::size_t b = 0; b < bsp.size(); ++b) differs += (bsp[b].values - h4[b].values).cwiseAbs().sum();
  EXPECT_GT(differs, 1e-2) << "4 local steps are not one";
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// From the command line: exit 2, the file and the JSON path.
TEST(PolicyConfig, TheCliExitsTwoNamingThePath) {
  const std::string sim =
      "sim " + testing::source_path("scenarios/quickstart-flat.json") + " -q --out /tmp/geotrain-policy-cli";
  const auto range = testing::run_geotrain(sim + R"( --set 'policy={"kind":"ssp","s":5000}')");
  EXPECT_EQ(range.exit_code, 2) << range.output;
  EXPECT_NE(range.output.find("/policy/s: expected an integer in [0, 1000], got 5000"), std::string::npos)
      << range.output;
  const auto unknown = testing::run_geotrain(sim + R"( --set 'policy={"kind":"asp","h":3}')");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("/policy/h: unknown key \"h\""), std::string::npos) << unknown.output;
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// eval.every_s: evaluations at the first round ending after each multiple of
// the period, whatever a round's length (asp: every push is a round).
TEST(EvalEverySeconds, EvaluatesOncePerPeriodWhateverTheRoundLength) {
  testing::FakeJob fj(
      testing::small_scenario("flat", {R"(policy={"kind":"asp"})", "stop.rounds=0", "stop.sim_time_s=3",
                                       R"(eval={"every_s":0.5})", "topology.dcs.2.worker_gflops=0.01"}));
  fj.run();
  const auto& rows = fj.monitor().timeline();
  ASSERT_GE(rows.size(), 6u);
  for (std::size_t i = 1; i + 1 < rows.size(); ++i) {  // the last row is the stop's
    EXPECT_GE(rows[i].time_s, 0.5 * double(i)) << i;
    EXPECT_LT(rows[i].time_s, 0.5 * double(i + 1)) << i << ": one evaluation per period";
  }
  EXPECT_GT(rows.back().round, std::int64_t(10 * rows.size())) << "far more rounds than evaluations";
  EXPECT_THROW(testing::small_scenario("flat", {R"(eval={"every_s":1,"every_rounds":5})"}), ConfigError);
}

}  // namespace
}  // namespace geotrain
