// Transfer scheduling (core/layers/sched) on the fake runtime: under every scheduler
// every member gets each round's one model exactly once and the merged sums
// equal the flat sum; the planner and TSEngine's rules; relays accepted only
// inside their group; the scenario loader's limits.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "core/json/json_reader.h"
#include "core/layers/sched/graph_plan.h"
#include "core/layers/sched/scheduler_registry.h"
#include "core/layers/sched/tsengine.h"
#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::FakeJob;

// A small job on the 8-DC topology (hub's thin links make relays worth it).
Scenario wan8(const std::string& kind, int rounds, std::vector<std::string> extra = {}) {
  std::vector<std::string> sets = {"topology=../topologies/wan8.json", "stop.rounds=" + std::to_string(rounds),
                                   "schedule.wan.kind=" + kind, "schedule.lan.kind=" + kind};
  sets.insert(sets.end(), extra.begin(), extra.end());
  return testing::small_scenario("hips", sets);
}

struct Observed {
  std::map<std::int64_t, ParamSet> model;                     // by round, as the first member got it
  std::map<std::pair<NodeId, std::int64_t>, int> models_got;  // (node, round) -> deliveries to its role
  std::map<std::int64_t, Payload> global_sum;                 // by round: every push the global server took in
  int mismatched = 0;                                         // deliveries of a round's model that differ from it
  std::uint64_t relayed = 0, merged = 0;
  int foreign_origin = 0, misdirected = 0;
};

// Runs the job, watching what reaches every node.
Observed run(const Scenario& sc) {
  FakeJob fj(sc);
  const Deployment& dep = fj.job().deployment();
  Observed o;
  fj.world().observe([&](const Message& m) {
    const NodeSpec& to = dep.nodes.at(std::size_t(m.to));
    if (m.kind == MsgKind::kPullResponse) {
      const bool relayed = m.from != to.parent;
      if (relayed) ++o.relayed;
      if (origin_of(m) != to.parent) ++o.foreign_origin;  // relayed or not, the model is the server's
      ++o.models_got[{m.to, m.round}];
      auto it = o.model.find(m.round);
      if (it == o.model.end())
        o.model[m.round] = m.payload->blocks;
      else if (max_abs_diff(it->second, m.payload->blocks) != 0)
        ++o.mismatched;
    }
    if (m.kind == MsgKind::kPush && to.role == Role::kGlobalServer) {
      auto it = o.global_sum.find(m.round);
      if (it == o.global_sum.end())
        o.global_sum[m.round] = densify(*m.payload);
      else
        accumulate(it->second, *m.payload);
    }
    if (m.kind == MsgKind::kPush && to.role != Role::kGlobalServer && to.parent != m.from &&
        std::find(to.children.begin(), to.children.end(), m.from) == to.children.end()) {
      ++o.merged;
      if (dest_of(m) != to.parent) ++o.misdirected;  // a push handed to a sibling is still bound for the server
    }
  });
  fj.run();
  return o;
}

TEST(Sched, EveryMemberGetsEachRoundsOneModelOnceAndMergedSumsEqualTheFlatSum) {
  const int rounds = 8;
  const Observed flat = run(wan8("direct", rounds));
  ASSERT_GE(flat.model.size(), std::size_t(rounds - 1));
  for (const char* kind : {"tsengine", "graph"}) {
    SCOPED_TRACE(kind);
    const Scenario sc = wan8(kind, rounds);
    const Observed o = run(sc);
    const Deployment dep = plan_deployment(sc);
    // Every local server and worker got every round's model exactly once,
    // the same bits as every other node of that round.
    for (std::int64_t r = 1; r < rounds; ++r) {
      for (const auto& n : dep.nodes) {
        if (n.role != Role::kLocalServer && n.role != Role::kWorker) continue;
        EXPECT_EQ((o.models_got.count({n.id, r}) ? o.models_got.at({n.id, r}) : 0), 1) << n.name << " round " << r;
      }
    }
    EXPECT_EQ(o.mismatched, 0);
    EXPECT_GT(o.relayed, 0u) << "nothing was relayed: the scheduler did not schedule";
    EXPECT_GT(o.merged, 0u) << "no push was merged on the way";
    EXPECT_EQ(o.foreign_origin, 0) << "a relayed model must name the server as its origin";
    EXPECT_EQ(o.misdirected, 0) << "a push sent to a sibling must name the server as its destination";
    // Round 0 starts from the same model, so its pushes are the same: the
    // merged sum the global server took in equals the flat one (float order aside).
    ASSERT_TRUE(o.global_sum.count(0));
    EXPECT_EQ(o.global_sum.at(0).contributors, flat.global_sum.at(0).contributors);
    EXPECT_LT(max_abs_diff(o.global_sum.at(0).blocks, flat.global_sum.at(0).blocks), 1e-5f);
    // And every round's model stays the flat run's, within float tolerance.
    for (std::int64_t r = 1; r < rounds; ++r) EXPECT_LT(max_abs_diff(o.model.at(r), flat.model.at(r)), 1e-4f) << r;
  }
}

// A group on fabricated figures: root 0 and members 1..4; the root's links
// are thin, every other pair fast.
struct Fixture {
  Throughput t;
  std::mt19937_64 rng{7};
  SchedGroup g;
  Fixture() {
    g.root = 0;
    g.members = {1, 2, 3, 4};
    g.model_bytes = 1'000'000;
    g.throughput = &t;
    g.rng = &rng;
    for (NodeId a = 0; a <= 4; ++a)
      for (NodeId b = 0; b <= 4; ++b)
        if (a != b) t.set_prior(a, b, (a == 0 || b == 0) && a + b != 1 ? 10e6 : 1000e6, 0.01, 0);
  }
};

struct Recorded : SchedOps {
  std::vector<std::pair<NodeId, NodeId>> models, pushes;
  std::vector<int> merges;
  void send_model(NodeId h, NodeId r) override { models.push_back({h, r}); }
  void order_push(NodeId s, NodeId r, int k) override {
    pushes.push_back({s, r});
    merges.push_back(k);
  }
};

TEST(GraphPlan, RelaysAroundTheRootsThinLinksAndServesEveryMemberOnce) {
  Fixture f;
  GraphPlan plan(f.g, 0.25);
  Recorded ops;
  plan.begin_broadcast(1, ops);
  plan.begin_aggregation(1, ops);
  std::multiset<NodeId> got, sent;
  for (const auto& [h, r] : ops.models) got.insert(r);
  for (const auto& [s, r] : ops.pushes) sent.insert(s);
  EXPECT_EQ(got, (std::multiset<NodeId>{1, 2, 3, 4}));
  EXPECT_EQ(sent, (std::multiset<NodeId>{1, 2, 3, 4}));
  // Only member 1 has a fast link to the root: everything else goes through it.
  for (const auto& [h, r] : ops.models) EXPECT_TRUE(h != 0 || r == 1) << h << " -> " << r;
  for (const auto& [s, r] : ops.pushes) EXPECT_TRUE(r != 0 || s == 1) << s << " -> " << r;
  // A member sends on once it has summed every push ordered to it.
  for (std::size_t i = 0; i < ops.pushes.size(); ++i) {
    int into = 0;
    for (const auto& [s, r] : ops.pushes) into += r == ops.pushes[i].first;
    EXPECT_EQ(ops.merges[i], into);
  }
}

TEST(GraphPlan, ReplansWhenAMeasuredEdgeMovesAndNotOtherwise) {
  Fixture f;
  GraphPlan plan(f.g, 0.25);
  Recorded ops;
  plan.begin_broadcast(1, ops);
  EXPECT_EQ(plan.replans(), 0u);
  // The measurement agrees with the prior (within the threshold): no new plan.
  f.t.record(0, 1, 1'000'000, 0.01 + 8e6 / 1000e6 * 1.1);
  plan.begin_broadcast(2, ops);
  EXPECT_EQ(plan.replans(), 0u);
  // Root -> 1 collapses: the next round is planned again, around it.
  f.t.record(0, 1, 1'000'000, 5.0);
  Recorded after;
  plan.begin_broadcast(3, after);
  EXPECT_EQ(plan.replans(), 1u);
  for (const auto& [h, r] : after.models) EXPECT_FALSE(h == 0 && r == 1);
}

TEST(TsEngine, GreedyChoiceFollowsTheIntendedRateAndEveryMemberIsServedOnce) {
  // All four pairs from the root measured: greedy with probability 0.9, so
  // the fastest (member 3) comes first about 0.9 + 0.1 / 4 of the time.
  int fastest_first = 0;
  const int trials = 4000;
  for (int i = 0; i < trials; ++i) {
    Fixture f;
    f.rng.seed(std::uint64_t(i));
    for (NodeId m = 1; m <= 4; ++m) f.t.record(0, m, 1000, m == 3 ? 0.001 : 0.01);
    TsEngine ts(f.g, 0.9);
    Recorded ops;
    ts.begin_broadcast(1, ops);
    ASSERT_EQ(ops.models.size(), 1u);
    fastest_first += ops.models[0].second == 3;
    // Every arrival gives both ends a receiver until everyone is served.
    for (std::size_t k = 0; k < ops.models.size(); ++k)
      ts.model_arrived(ops.models[k].first, ops.models[k].second, ops);
    std::multiset<NodeId> got;
    for (const auto& [h, r] : ops.models) got.insert(r);
    ASSERT_EQ(got, (std::multiset<NodeId>{1, 2, 3, 4}));
  }
  EXPECT_NEAR(double(fastest_first) / trials, 0.925, 0.02);
  // Nothing measured: known / (known + unknown) = 0, so the choice is uniform.
  int first_is_3 = 0;
  for (int i = 0; i < trials; ++i) {
    Fixture f;
    f.rng.seed(std::uint64_t(i));
    TsEngine ts(f.g, 0.9);
    Recorded ops;
    ts.begin_broadcast(1, ops);
    first_is_3 += ops.models[0].second == 3;
  }
  EXPECT_NEAR(double(first_is_3) / trials, 0.25, 0.03);
}

TEST(TsEngine, PairsReadyNodesTheFasterWayAndTheRootAlwaysReceives) {
  Fixture f;
  f.t.record(2, 1, 1000, 0.001);  // 2 -> 1 is fast, 1 -> 2 unmeasured
  TsEngine ts(f.g, 0.9);
  Recorded ops;
  ts.begin_aggregation(1, ops);
  ts.ready(3, ops);  // paired with the root, which is queued first: 3 sends to it
  ASSERT_EQ(ops.pushes.size(), 1u);
  EXPECT_EQ(ops.pushes[0], std::make_pair(NodeId(3), NodeId(0)));
  ts.ready(1, ops);
  ts.ready(2, ops);
  ASSERT_EQ(ops.pushes.size(), 2u);
  EXPECT_EQ(ops.pushes[1], std::make_pair(NodeId(2), NodeId(1)));
  ts.merged(2, 1, ops);  // 1 holds 1 + 2 and queues again; 4 arrives
  ts.merged(3, 0, ops);  // the root queues again
  ts.ready(4, ops);
  ASSERT_EQ(ops.pushes.size(), 3u);
  EXPECT_EQ(ops.pushes[2], std::make_pair(NodeId(1), NodeId(0)));
  EXPECT_EQ(ops.merges[2], 1);  // 1 sends once it has summed 2's push
}

// A member lost mid-round (its links cut, then declared down) takes with it what
// it relayed and what was summed into it: the root finishes that round without
// the plan (every push it lacks comes alone, the model direct) and plans the
// next ones over the members that are up. Without that the job would hang.
TEST(Sched, AMemberLostMidRoundIsPlannedAroundAndEveryRoundCompletes) {
  for (const std::string kind : {"tsengine", "graph"}) {
    FakeJob fj(wan8(kind, 40));
    const Deployment& dep = fj.job().deployment();
    const NodeId gs = dep.global_server, lost = dep.nodes[std::size_t(gs)].children.at(1);
    fj.run(from_seconds(1));
    auto rounds = [&] { return fj.actor(gs).report(fj.world().now())["rounds"].get<std::int64_t>(); };
    const std::int64_t before = rounds();
    ASSERT_GT(before, 1) << kind;
    ASSERT_LT(before, 40) << kind;
    for (const auto& n : dep.nodes)
      if (n.id != lost) fj.world().link(lost, n.id).cut = fj.world().link(n.id, lost).cut = true;
    fj.world().at(fj.world().now() + from_seconds(0.01), [&] { fj.actor(gs).on_peer_down(lost); });
    fj.run();
    EXPECT_EQ(rounds(), 40) << kind;
    const nlohmann::json root = fj.actor(gs).report(fj.world().now())["sched"]["root"];
    EXPECT_EQ(root["rounds_abandoned"], 1) << kind << root.dump();
    EXPECT_EQ(root["regroups"], 1) << kind << root.dump();
  }
}

TEST(Sched, ARelayOrPushFromOutsideTheGroupIsRefusedAndCounted) {
  // WAN scheduled, LAN direct: a worker may not push to another DC's local
  // server, nor order anyone about, and a member may pass on only its
  // server's model, not one of its own; the job goes on as if nothing was sent.
  const Scenario sc = wan8("graph", 6, {"schedule.lan.kind=direct"});
  FakeJob fj(sc);
  const Deployment& dep = fj.job().deployment();
  NodeId worker = -1, other_ls = -1;
  for (const auto& n : dep.nodes) {
    if (n.role == Role::kWorker && worker < 0) worker = n.id;
    if (n.role == Role::kLocalServer && worker >= 0 && n.id != dep.nodes[worker].parent) other_ls = n.id;
  }
  ASSERT_GE(other_ls, 0);
  NodeId sibling = -1;  // a local server beside other_ls in the WAN group
  for (const auto& n : dep.nodes)
    if (n.role == Role::kLocalServer && n.id != other_ls) sibling = n.id;
  ASSERT_GE(sibling, 0);
  fj.world().at(kNsPerSecond / 10, [&] {
    auto forged = std::make_shared<Payload>();
    forged->blocks = fj.job().initial_params();
    forged->contributors = 100;
    fj.world().runtime(worker).send(make_message(MsgKind::kPush, worker, other_ls, 0, forged));
    Message order = make_message(MsgKind::kRelayOrder, worker, other_ls, 1);
    order.seq = std::uint32_t(dep.global_server);
    fj.world().runtime(worker).send(order);
    auto model = std::make_shared<Payload>();
    model->blocks = fj.job().initial_params();
    fj.world().runtime(sibling).send(make_message(MsgKind::kPullResponse, sibling, other_ls, 1, model));
  });
  fj.run();
  const nlohmann::json rep = fj.actor(other_ls).report(fj.world().now());
  EXPECT_EQ(rep["sched"]["rejected"].get<int>() + rep["sched"]["member"]["rejected"].get<int>(), 3) << rep.dump();
  EXPECT_EQ(fj.monitor().timeline().back().round, 6);
}

TEST(MayRelay, OnlyOneselfOnesParentOrASiblingInsideOneGroup) {
  // Real mode drops any message whose origin its sending peer may not relay for.
  const Deployment d = plan_deployment(wan8("graph", 1));
  const NodeId gs = d.global_server;
  const NodeId ls_a = d.nodes[gs].children.at(0), ls_b = d.nodes[gs].children.at(1);
  const NodeId w_a = d.nodes[ls_a].children.at(0), w_a2 = d.nodes[ls_a].children.at(1);
  const NodeId w_b = d.nodes[ls_b].children.at(0);
  EXPECT_TRUE(may_relay(d, ls_a, ls_a));
  EXPECT_TRUE(may_relay(d, ls_a, gs));    // the server's model, down the WAN group
  EXPECT_TRUE(may_relay(d, ls_a, ls_b));  // a sibling's push, merged on the way
  EXPECT_TRUE(may_relay(d, w_a, ls_a));   // inside a DC
  EXPECT_TRUE(may_relay(d, w_a, w_a2));
  EXPECT_FALSE(may_relay(d, w_a, w_b));  // another DC's worker
  EXPECT_FALSE(may_relay(d, w_a, gs));   // two levels up: not its group
  EXPECT_FALSE(may_relay(d, w_a, ls_b));
  EXPECT_FALSE(may_relay(d, gs, ls_a));    // the top has no group above
  EXPECT_FALSE(may_relay(d, ls_a, 9999));  // no such node
  EXPECT_FALSE(may_relay(d, -1, gs));
}

TEST(SchedConfig, SchedulersNeedBspDenseStreamsAndNoDgt) {
  const auto fails = [](std::vector<std::string> sets, const std::string& what) {
    try {
      testing::small_scenario("hips", sets);
      ADD_FAILURE() << "accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  fails({"schedule.wan.kind=graph", "policy.kind=asp"}, "runs under policy bsp");
  fails({"schedule.lan.kind=tsengine", R"(compression={"lan_push":{"kind":"fp16"}})"}, "lan_push and lan_pull");
  fails({"schedule.wan.kind=graph", R"(dgt={"mode":1})"}, "does not combine with dgt");
  fails({"schedule.wan.kind=ring"}, "/schedule/wan/kind: unknown value \"ring\"");
  // A parameter of the chosen scheduler, with its range.
  fails({"schedule.wan.kind=tsengine", "schedule.wan.greedy_max=2"}, "greedy_max");
  EXPECT_EQ(testing::small_scenario("hips", {"schedule.wan.kind=tsengine"}).schedule.wan.params.at("greedy_max"), 0.9);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

TEST(SchedulerRegistry, TheSchemaNamesExactlyTheRegisteredSchedulersAndTheirParametersOnEachTier) {
  const auto schema = load_json_file(testing::source_path("scenarios/scenario.schema.json"));
  std::set<std::string> registered, registry_params;
  for (const auto& s : scheduler_registry()) {
    registered.insert(s.doc.name);
    for (const auto& p : s.params) registry_params.insert(p.name);
  }
  for (const char* tier : {"lan", "wan"}) {
    const auto& t = schema["properties"]["schedule"]["properties"][tier];
    std::set<std::string> kinds, params;
    for (const auto& k : t["properties"]["kind"]["enum"]) kinds.insert(k.get<std::string>());
    for (const auto& [k, v] : t["properties"].items()) {
      (void)v;
      if (k != "kind") params.insert(k);
    }
    EXPECT_EQ(kinds, registered) << tier;
    EXPECT_EQ(params, registry_params) << tier;
  }
}

}  // namespace
}  // namespace geotrain
