// Every combination a user can write of architecture x policy x push codec x
// pull codec x scheduler x DGT x P3 x MultiGPS either runs or is refused by the
// loader with the JSON path and a reason. The whole product goes through the
// loader; every runnable combination runs a few rounds on the fake runtime:
// no crash, no hang, no NaN, and every message charged what core/payload/wire encodes
// for it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>

#include "core/codec/codec_registry.h"
#include "core/config/scenario.h"
#include "core/json/json_reader.h"
#include "core/layers/sched/scheduler_registry.h"
#include "core/payload/wire.h"
#include "core/policies/policy_registry.h"
#include "core/roles/aggregator.h"
#include "core/roles/served_copies.h"
#include "core/run/monitor.h"
#include "core/testing/fake_job.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

struct Combo {
  std::string arch, policy, push, pull, sched;
  int dgt = 0;
  bool p3 = false;
  int servers = 1;
  std::string name() const {
    return arch + "/" + policy + "/push " + push + "/pull " + pull + "/sched " + sched + "/dgt " + std::to_string(dgt) +
           (p3 ? "/p3" : "") + "/servers " + std::to_string(servers);
  }
};

// A small job: 2 DCs x 2 workers stepping in milliseconds (with steps of
// microseconds, asp and nbsync workers take thousands of steps while one
// WAN transfer is in flight), a 260-parameter model cut into parts where
// a part is asked for (DGT blocks of 64 bytes, P3 slices of 32 entries, shards
// above 16 entries), every stream through its codec.
nlohmann::json base_scenario() {
  return nlohmann::json::parse(R"({
    "name": "composition",
    "topology": {"name": "t", "lan": {"bandwidth_mbps": 10000, "latency_ms": 0.05},
                 "dcs": [{"name": "central", "workers": 0},
                         {"name": "a", "workers": 2, "worker_gflops": 0.005},
                         {"name": "b", "workers": 2, "worker_gflops": 0.002}],
                 "global_server_dc": "central",
                 "wan": {"default": {"bandwidth_mbps": 100, "latency_ms": 20}}},
    "seed": 3,
    "model": {"kind": "softmax"},
    "dataset": {"kind": "synthetic", "features": 64, "classes": 4, "train": 400, "test": 40},
    "optimizer": {"kind": "sgd", "lr": 0.1},
    "batch_size": 8,
    "stop": {"rounds": 3},
    "eval": {"every_rounds": 3}
  })");
}

nlohmann::json scenario_json(const Combo& c) {
  nlohmann::json j = base_scenario();
  j["architecture"] = c.arch;
  j["policy"] = {{"kind", c.policy}};
  // Short local rounds for the policies that step locally between syncs.
  for (const auto& p : find_policy(c.policy)->params)
    if (p.name == "h" || p.name == "k1" || p.name == "k2")
      j["policy"][p.name] = 2;
    else if (p.name == "eps")  // esync's slack: with steps of microseconds, 0.5 s is thousands of local steps
      j["policy"][p.name] = 0;
  j["compression"] = {{"lan_push", {{"kind", c.push}}},
                      {"wan_push", {{"kind", c.push}}},
                      {"lan_pull", {{"kind", c.pull}}},
                      {"wan_pull", {{"kind", c.pull}}},
                      {"dense_below", 0}};
  j["schedule"] = {{"lan", {{"kind", c.sched}}}, {"wan", {{"kind", c.sched}}}};
  j["dgt"] = {{"mode", c.dgt}, {"block_bytes", 64}};
  j["p3"] = {{"slice_elements", c.p3 ? 32 : 0}};
  j["multigps"] = {{"servers", c.servers}, {"split_above", 16}};
  return j;
}

std::vector<Combo> whole_product() {
  std::vector<Combo> out;
  for (const std::string arch : {"hips", "flat"})
    for (const auto& policy : policy_registry())
      for (const auto& push : codec_registry())
        for (const auto& pull : codec_registry())
          for (const auto& sched : scheduler_registry())
            for (int dgt = 0; dgt <= 3; ++dgt)
              for (bool p3 : {false, true})
                for (int servers : {1, 2})
                  out.push_back({arch, policy.name, push.doc.name, pull.doc.name, sched.doc.name, dgt, p3, servers});
  return out;
}

// The reason a refusal gives, without the file and with the policy it names
// as "P", for counting by reason.
std::string reason_of(const std::string& what) {
  const auto colon = what.find(": ");
  std::string r = colon == std::string::npos ? what : what.substr(colon + 2);
  const auto n = r.rfind(", not \"");
  if (n != std::string::npos) r = r.substr(0, n) + ", not \"P\"";
  return r;
}

// Runs the job a few rounds; an empty string when every check held.
std::string run_checked(const Scenario& sc) {
  testing::FakeJob fj(sc);
  std::string problem;
  std::uint64_t checked = 0;
  fj.world().observe([&](const Message& m) {
    if (!problem.empty() || checked++ % 7 != 0) return;  // a sample of the messages: encoding all doubles the cost
    const std::uint64_t encoded = encode_message(m).size();
    if (encoded != m.wire_bytes)
      problem = std::string(to_string(m.kind)) + " charged " + std::to_string(m.wire_bytes) + " bytes, encodes to " +
                std::to_string(encoded);
  });
  fj.run(std::int64_t(600) * 1'000'000'000);  // a bound: no combination may hang the job
  if (!problem.empty()) return problem;
  // What the run's referee saw: the global server's rounds and model, whichever roles serve it.
  RunMonitor& m = fj.monitor();
  if (!m.failure().empty()) return m.failure();
  if (m.timeline().empty() || m.timeline().back().round < 3)
    return "reached round " + std::to_string(m.timeline().empty() ? 0 : m.timeline().back().round) +
           " of 3 within 600 simulated s";
  for (double v : m.timeline().back().metrics)
    if (!std::isfinite(v)) return "a metric is not finite";
  for (const auto& b : m.last_evaluated())
    if (!b.values.allFinite()) return "block " + std::to_string(b.key) + " is not finite";
  return {};
}

TEST(Composition, EveryCombinationRunsOrIsRefusedWithItsReason) {
  const std::vector<Combo> all = whole_product();
  std::map<std::string, int> refused_by_reason;
  int runnable = 0, refused = 0;
  std::vector<std::string> failures;
  for (const Combo& c : all) {
    Scenario sc;
    try {
      sc = read_scenario(scenario_json(c), "composition.json", {});
    } catch (const ConfigError& e) {
      ++refused;
      const std::string what = e.what();
      // Every refusal names the file, a JSON path and a reason.
      EXPECT_NE(what.find("composition.json: /"), std::string::npos) << c.name() << ": " << what;
      ++refused_by_reason[reason_of(what)];
      continue;
    }
    ++runnable;
    std::string problem;
    try {
      problem = run_checked(sc);
    } catch (const std::exception& e) {
      problem = std::string("threw: ") + e.what();
    }
    if (!problem.empty()) failures.push_back(c.name() + ": " + problem);
  }
  std::printf("composition: %zu combinations, %d runnable (all ran), %d refused\n", all.size(), runnable, refused);
  for (const auto& [reason, n] : refused_by_reason) std::printf("  %6d refused: %s\n", n, reason.c_str());
  for (std::size_t i = 0; i < failures.size() && i < 40; ++i) ADD_FAILURE() << failures[i];
  EXPECT_TRUE(failures.empty()) << failures.size() << " runnable combinations failed";
  EXPECT_GT(runnable, 1000);
}

// A seeded sample of the runnable combinations, each run from one scenario
// file by `geotrain sim` (ns-3) and `geotrain launch` (processes on
// loopback): 32 under policies whose computation does not depend on timing,
// where every stream must carry the same payloads of the same bytes in both,
// and 16 under the others, which must run to their rounds in both.
TEST(Composition, ASampleRunsInNs3AndLaunchWithTheSamePayloadBytes) {
  const std::vector<Combo> all = whole_product();
  std::mt19937_64 rng(20261204);
  std::uniform_int_distribution<std::size_t> pick(0, all.size() - 1);
  const std::string dir = testing::fresh_dir("composition");
  std::filesystem::create_directories(dir);
  int exact = 0, timed = 0;
  std::string untimed;
  for (const auto& p : policy_registry())
    if (!policy_needs(p, default_params(p)).timing_dependent) untimed += " " + p.name;
  std::printf("policies whose runs do not depend on timing:%s\n", untimed.c_str());
  while (exact < 32 || timed < 16) {
    const Combo& c = all[pick(rng)];
    const nlohmann::json j = scenario_json(c);
    Scenario sc;
    try {
      sc = read_scenario(j, "composition.json", {});
    } catch (const ConfigError&) {
      continue;
    }
    const bool timing = policy_needs(*find_policy(sc.policy), sc.policy_params).timing_dependent;
    if (timing ? timed >= 16 : exact >= 32) continue;
    ++(timing ? timed : exact);
    const std::string file = dir + "/c" + std::to_string(exact + timed) + ".json";
    std::ofstream(file) << j.dump(2);
    const auto sim = testing::run_geotrain("sim " + file + " --out " + dir + "/sim -q");
    ASSERT_EQ(sim.exit_code, 0) << c.name() << "\n" << sim.output;
    const nlohmann::json s = testing::read_json(dir + "/sim/summary.json");
    const nlohmann::json l = testing::launch_summary(file, {}, "composition-launch");
    ASSERT_FALSE(l.is_null()) << c.name();
    EXPECT_GE(l["rounds"].get<int>(), 3) << c.name();
    for (const char* stream : {"lan_push", "lan_pull", "wan_push", "wan_pull"}) {
      const bool in_sim = s["compression"].contains(stream), in_launch = l["compression"].contains(stream);
      EXPECT_EQ(in_sim, in_launch) << c.name() << " " << stream;
      if (timing || !in_sim || !in_launch) continue;  // (a flat job has no LAN streams)
      const nlohmann::json &a = s["compression"][stream], &b = l["compression"][stream];
      EXPECT_EQ(a["payloads"], b["payloads"]) << c.name() << " " << stream;
      EXPECT_EQ(a["sent_bytes"], b["sent_bytes"]) << c.name() << " " << stream;
    }
  }
  std::filesystem::remove_all(dir);
}

// A server's answers to each child through a stochastic pull codec do not
// depend on the order the children ask in (real mode's order is the network's):
// each child's answers draw their own random numbers. Found by the sample above.
TEST(Composition, PullAnswersDoNotDependOnTheOrderChildrenAsk) {
  ParamSet initial = {ParamBlock{0, Eigen::VectorXf::Zero(500)}};
  ParamSet model = {ParamBlock{0, Eigen::VectorXf::LinSpaced(500, -1, 1)}};
  CodecChoice qsgd{"qsgd", {{"levels", 4}}};
  const auto answers = [&](std::vector<NodeId> order) {
    ServedCopies copies(initial);
    StreamEncoder enc(qsgd, {Tier::kWan, 7, 0}, /*fresh=*/true);
    std::map<NodeId, std::vector<std::uint64_t>> out;
    for (int round = 0; round < 2; ++round)
      for (NodeId child : order) {
        const auto p = copies.serve(child, model, enc, false, 0).payload;
        out[child].push_back(std::hash<std::string>{}(
            std::string(reinterpret_cast<const char*>(p->coded.at(0).bytes.data()), p->coded.at(0).bytes.size())));
      }
    return out;
  };
  EXPECT_EQ(answers({1, 2, 3}), answers({3, 1, 2}));
}

// A server with three or more children merges a round to the same bits whatever
// order their pushes arrive in (real mode's order is the network's): float sums
// of three terms depend on their order, so the merge goes by sender. Found by
// the sample above, under flat local_sgd, once in several runs.
TEST(Composition, AServersRoundSumDoesNotDependOnArrivalOrder) {
  const auto policy = find_policy("bsp")->make(default_params(*find_policy("bsp")), Role::kGlobalServer);
  // Values whose sums round differently by order: 1e8 + 1 - 1e8 style cancellations, and thirds.
  // Child 1 pushes no blocks (a scheduled group's member whose update travels in another's push).
  const std::vector<NodeId> children = {4, 9, 2, 7, 1};
  std::map<NodeId, std::shared_ptr<const Payload>> push;
  auto none = std::make_shared<Payload>();
  none->loss_sum = 0.3;
  push[1] = none;
  for (NodeId c : {4, 9, 2, 7}) {
    auto p = std::make_shared<Payload>();
    Eigen::VectorXf v(3);
    v << (c % 2 ? 1e8f : -1e8f) + float(c), 1.0f / float(c), float(c) * 0.1f;
    p->blocks.push_back(ParamBlock{0, v});
    p->loss_sum = 1.0 / c;
    p->contributors = 1;
    push[c] = p;
  }
  const auto round = [&](std::vector<NodeId> order) {
    Aggregator agg(children, *policy);
    bool complete = false;
    for (NodeId c : order) complete = agg.add(c, push.at(c));
    EXPECT_TRUE(complete);
    std::vector<NodeId> who;
    const auto sum = agg.take(&who);
    EXPECT_EQ(who, (std::vector<NodeId>{1, 2, 4, 7, 9}));
    EXPECT_EQ(sum->contributors, 4);
    return std::make_pair(std::vector<float>(sum->blocks.at(0).values.data(), sum->blocks.at(0).values.data() + 3),
                          sum->loss_sum);
  };
  const auto first = round({4, 9, 2, 7, 1});
  std::vector<NodeId> order = children;
  std::sort(order.begin(), order.end());
  do {
    EXPECT_EQ(round(order), first);  // exactly: the same bits
  } while (std::next_permutation(order.begin(), order.end()));
}

}  // namespace
}  // namespace geotrain
