// ESync and NBSync: the state server's rule by itself, then the local step
// counts it produces on the fake runtime (the closed form of REFERENCE.md
// section 3), re-derived when a worker's speed changes, and NBSync's
// pipelining (no worker waits for the WAN).
#include "core/policies/esync.h"

#include <gtest/gtest.h>

#include <map>

#include "core/roles/global_server.h"
#include "core/roles/worker.h"
#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

WorkerState state(std::int64_t k, double step_s, double transfer_s, double reported_at_s, std::int64_t told = 0) {
  WorkerState w;
  w.k = k;
  w.step_s = step_s;
  w.transfer_s = transfer_s;
  w.reported_at = from_seconds(reported_at_s);
  w.pushes_told = told;
  return w;
}

TEST(ESyncRule, PushWhenOneMoreStepWouldEndAfterTheSlowestLessEps) {
  // Slowest (node 2) began its 3 s step at t = 10; a 0.4 s worker asks at t = 12.
  std::map<NodeId, WorkerState> w = {{1, state(5, 0.4, 0, 12)}, {2, state(0, 3.0, 0, 10)}};
  EXPECT_FALSE(esync_push_now(w, 1, from_seconds(12.0), 0.5, false).push) << "rest 1.0 s: 0.4 + 0.5 fits";
  EXPECT_TRUE(esync_push_now(w, 1, from_seconds(12.2), 0.5, false).push) << "rest 0.8 s: 0.4 + 0.5 does not";
  EXPECT_FALSE(esync_push_now(w, 1, from_seconds(12.2), 0.3, false).push) << "less slack, one more step";
  EXPECT_NEAR(esync_push_now(w, 1, from_seconds(12.2), 0.5, false).slack_s, 0.8, 1e-9) << "the slowest's rest";
  w[1].k = 0;
  EXPECT_FALSE(esync_push_now(w, 1, from_seconds(13), 0.5, false).push) << "never before a first local step";
  w[2].k = 1;
  EXPECT_TRUE(esync_push_now(w, 2, from_seconds(13), 0.5, false).push) << "the slowest pushes after one step";
  EXPECT_EQ(esync_push_now(w, 2, from_seconds(13), 0.5, false).slack_s, 0.0) << "its push closes the round";
  w[1].k = 2;
  w[2].pushes_told = 1;
  EXPECT_TRUE(esync_push_now(w, 1, from_seconds(10.1), 0.5, false).push) << "the slowest already closed this round";
  EXPECT_EQ(esync_push_now(w, 1, from_seconds(10.1), 0.5, false).slack_s, 0.0) << "the round waits for this push";
  // Pipelined, node 1 pushed a round the slowest has not closed: the round it
  // steps in now ends one of the slowest's rounds later.
  w[1].pushes_told = 2;
  w[2].reported_at = from_seconds(10);
  EXPECT_FALSE(esync_push_now(w, 1, from_seconds(12.8), 0.5, false).push) << "rest 0.2 s + 3 s";
  EXPECT_NEAR(esync_push_now(w, 1, from_seconds(15.6), 0.5, false).slack_s, 0.4, 1e-9) << "rest 0.4 s";
  // Transfer-aware: the slowest is the one with the largest step + transfer,
  // and a worker with a short path may step longer.
  std::map<NodeId, WorkerState> t = {
      {1, state(3, 0.4, 0.1, 11)}, {2, state(0, 2.0, 0.2, 11)}, {3, state(0, 1.5, 2.0, 11)}};
  EXPECT_TRUE(esync_push_now(t, 1, from_seconds(12.2), 0.5, false).push)
      << "compute: node 2 slowest, rest 0.8 < 0.4 + 0.5";
  EXPECT_FALSE(esync_push_now(t, 1, from_seconds(12.2), 0.5, true).push)
      << "transfer: node 3 slowest, rest 2.3 > 0.5 + 0.5";
  EXPECT_TRUE(esync_push_now(t, 1, from_seconds(13.6), 0.5, true).push) << "rest 0.9 < 1.0";
}

// A flat job with three DCs of two workers each, steps of `step_s` seconds
// (fixed speeds, no jitter) and near-zero latency, so the closed form holds.
Scenario three_speeds(const std::string& policy, const std::vector<double>& step_s,
                      std::vector<std::string> sets = {}) {
  sets.insert(sets.begin(), {"policy=" + policy, "batch_size=30", "stop.rounds=12", "eval.every_rounds=100",
                             "topology.wan.default.latency_ms=0.001", "topology.lan.latency_ms=0.001"});
  Scenario sc = testing::small_scenario("flat", sets);
  sc.topology.dcs[0].workers = 2;
  for (std::size_t d = 0; d < 3; ++d) {
    sc.topology.dcs[d].worker_gflops.clear();
    sc.topology.dcs[d].worker_samples_per_s.assign(2, 30.0 / step_s[d]);
  }
  return sc;
}

// Local steps of each worker in each of its local rounds, from the trace.
std::map<NodeId, std::vector<int>> local_rounds(const testing::TraceRecorder& rec) {
  std::map<NodeId, std::vector<int>> out;
  std::map<NodeId, int> steps;
  for (const auto& e : rec.events) {
    if (e.kind == TraceKind::kStepDone) ++steps[e.node];
    if (e.kind == TraceKind::kWorkerPushed) {
      out[e.node].push_back(steps[e.node]);
      steps[e.node] = 0;
    }
  }
  return out;
}

int closed_form(double c_slow, double c_i, double eps) { return std::max(1, int(std::floor((c_slow - eps) / c_i))); }

TEST(ESync, LocalStepsPerRoundFollowTheClosedForm) {
  const std::vector<double> c = {0.3, 0.7, 3.0};
  for (double eps : {0.5, 0.1, 2.8}) {
    testing::TraceRecorder rec;
    testing::FakeJob fj(three_speeds(R"({"kind":"esync","eps":)" + std::to_string(eps) + "}", c), &rec);
    fj.run();
    const Deployment& dep = fj.job().deployment();
    ASSERT_GE(dep.state_server, 0);
    EXPECT_EQ(fj.role<GlobalServer>(dep.global_server).rounds(), 12);
    const auto rounds = local_rounds(rec);
    for (NodeId id : dep.workers) {
      const NodeSpec& n = dep.nodes[std::size_t(id)];
      const auto& k = rounds.at(id);
      ASSERT_GE(k.size(), 11u) << n.name;
      EXPECT_EQ(k[0], 1) << n.name << ": the first round, before any step is timed";
      for (std::size_t r = 1; r < k.size(); ++r)
        EXPECT_EQ(k[r], closed_form(c[2], c[std::size_t(n.dc)], eps)) << n.name << " eps " << eps << " round " << r;
    }
    // Every report but the round openers is answered, over the network.
    EXPECT_GT(fj.world().sent(dep.workers[0], dep.state_server).messages, 0u);
    EXPECT_GT(fj.world().sent(dep.state_server, dep.workers[0]).messages, 0u);
  }
}

// Under hips with a long WAN (1 s one way), the DC beside the servers gets
// each new model seconds before the slowest worker; until that worker's report
// for the new round arrives, its whole step is still ahead, so the near DC does
// not push early (it takes at least the closed form's steps).
TEST(ESync, AWorkerNearTheServersDoesNotPushBeforeTheSlowestBegins) {
  const std::vector<double> c = {0.3, 0.7, 3.0};
  testing::TraceRecorder rec;
  Scenario sc = three_speeds(R"({"kind":"esync"})", c, {"architecture=hips", "topology.wan.default.latency_ms=1000"});
  ASSERT_EQ(sc.topology.global_server_dc, 0);
  testing::FakeJob fj(sc, &rec);
  fj.run();
  const Deployment& dep = fj.job().deployment();
  const auto rounds = local_rounds(rec);
  for (NodeId id : dep.workers) {
    const NodeSpec& n = dep.nodes[std::size_t(id)];
    if (n.dc != 0) continue;  // the others wait 2 s for each answer: fewer steps fit
    const auto& k = rounds.at(id);
    ASSERT_GE(k.size(), 10u);
    for (std::size_t r = 1; r < k.size(); ++r)
      EXPECT_GE(k[r], closed_form(c[2], c[0], 0.5)) << n.name << " round " << r;
  }
}

// A straggler window slows one fast worker 20x: while it lasts it is the
// slowest, and everyone's step counts follow from its step time instead.
TEST(ESync, StepCountsAreRederivedWhenSpeedsChange) {
  const std::vector<double> c = {0.3, 0.7, 3.0};
  testing::TraceRecorder rec;
  Scenario sc = three_speeds(R"({"kind":"esync"})", c, {"stop.rounds=40"});
  sc.compute.stragglers.push_back({0, 20.0, 60.0, 20.0});  // worker 0 (C 0.3 s) takes 6 s from t = 20 s to 60 s
  testing::FakeJob fj(sc, &rec);
  fj.run();
  const Deployment& dep = fj.job().deployment();
  std::map<NodeId, int> steps;
  std::map<NodeId, std::vector<std::pair<TimeNs, int>>> k;  // (push time, local steps)
  for (const auto& e : rec.events) {
    if (e.kind == TraceKind::kStepDone) ++steps[e.node];
    if (e.kind == TraceKind::kWorkerPushed) k[e.node].push_back({e.t, std::exchange(steps[e.node], 0)});
  }
  const NodeId other_fast = dep.workers[1], mid = dep.workers[2];
  auto during = [&](NodeId w) {  // local rounds that began and ended inside the window, after its first slow step
    std::vector<int> out;
    for (std::size_t i = 1; i < k[w].size(); ++i)
      if (k[w][i - 1].first > from_seconds(27) && k[w][i].first < from_seconds(60)) out.push_back(k[w][i].second);
    return out;
  };
  ASSERT_FALSE(during(other_fast).empty());
  for (int v : during(other_fast)) EXPECT_EQ(v, closed_form(6.0, 0.3, 0.5));
  for (int v : during(mid)) EXPECT_EQ(v, closed_form(6.0, 0.7, 0.5));
  for (int v : during(dep.workers[4])) EXPECT_EQ(v, closed_form(6.0, 3.0, 0.5));
  EXPECT_EQ(k[other_fast].back().second, closed_form(3.0, 0.3, 0.5)) << "after the window, back to the 3 s worker";
}

// Transfer-aware: a worker with a long path to the server counts as slower,
// so the others take more local steps than with compute time alone.
TEST(ESync, TransferAwareModeCountsTheSlowWorkersPath) {
  const std::vector<double> c = {0.3, 0.7, 3.0};
  auto fast_steps = [&](int aware) {
    testing::TraceRecorder rec;
    Scenario sc = three_speeds(R"({"kind":"esync","transfer_aware":)" + std::to_string(aware) + "}", c);
    for (auto& l : sc.topology.wan)
      if (l.a == 2 || l.b == 2) l.link.latency_ms = 800;  // the slow DC's model takes 0.8 s to come
    testing::FakeJob fj(sc, &rec);
    fj.run();
    const auto k = local_rounds(rec).at(fj.job().deployment().workers[0]);
    return k.back();
  };
  const int compute = fast_steps(0), aware = fast_steps(1);
  EXPECT_GT(aware, compute + 1) << "compute-only " << compute << ", transfer-aware " << aware;
}

// NBSync: workers step on while the aggregate travels; with a slow WAN none of
// them idles for it, each merges the global model, and the rounds stay synchronous.
TEST(NbSync, WorkersNeverWaitForTheWanAndKeepOneRoundInFlight) {
  const std::vector<double> c = {0.3, 0.7, 3.0};
  testing::TraceRecorder rec;
  // eps 0.1 s: shorter than the 0.4 s the far DCs' pushes take to reach the
  // global server, which the central DC would otherwise wait for.
  Scenario sc =
      three_speeds(R"({"kind":"nbsync","eps":0.1})", c, {"stop.rounds=10", "topology.wan.default.bandwidth_mbps=0.05"});
  testing::FakeJob fj(sc, &rec);
  const Deployment& dep = fj.job().deployment();
  // Until a worker has timed a sync it waits for the model, as esync does:
  // count from the second round on (the first ends after about 3.8 s).
  const TimeNs from = from_seconds(6);
  fj.run(from);
  std::map<NodeId, TimeNs> busy_before;
  for (NodeId id : dep.workers) busy_before[id] = fj.role<Worker>(id).stats_at(from).busy_ns;
  fj.run();
  EXPECT_EQ(fj.role<GlobalServer>(dep.global_server).rounds(), 10);
  for (NodeId id : dep.workers) {
    const WorkerStats s = fj.role<Worker>(id).stats_at(fj.world().now());
    const double busy = double(s.busy_ns - busy_before[id]) / double(fj.world().now() - from);
    EXPECT_GT(busy, 0.9) << dep.nodes[std::size_t(id)].name << ": only the state server's answers are waited for";
    EXPECT_GE(s.pushes, 10);
    EXPECT_LE(s.pushes, 11) << "at most one round ahead of the global model";
  }
  testing::TraceRecorder esync_rec;
  Scenario es = sc;
  es.policy = "esync";
  testing::FakeJob ej(es, &esync_rec);
  ej.run();
  EXPECT_LT(fj.world().now(), ej.world().now()) << "pipelining hides the WAN";
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// On a fast network every push comes back merged within eps (less the wait
// for the slowest worker's compute, which esync tolerates as slack): every
// worker waits for its model rather than stepping on one about to be
// replaced, and the run is esync's, step for step.
TEST(NbSync, OnAFastNetworkItIsESyncStepForStep) {
  const std::vector<double> c = {0.3, 0.7, 3.0};
  // 50 ms one way: a push comes back merged about 0.2 s after it went (the trip
  // up, the round's close, the model's trip down), under eps = 0.5 s.
  auto run = [&](const std::string& kind, testing::TraceRecorder* rec) {
    testing::FakeJob fj(three_speeds(R"({"kind":")" + kind + R"("})", c, {"topology.wan.default.latency_ms=50"}), rec);
    fj.run();
    const Deployment& dep = fj.job().deployment();
    std::vector<double> blocked;
    for (NodeId id : dep.workers) {
      const WorkerStats st = fj.role<Worker>(id).stats_at(fj.world().now());
      blocked.push_back(to_seconds(st.blocked_ns) / double(st.pushes));
    }
    std::vector<float> params;
    for (const ParamBlock& b : fj.role<GlobalServer>(dep.global_server).params())
      params.insert(params.end(), b.values.data(), b.values.data() + b.values.size());
    return std::make_tuple(fj.world().now(), params, blocked);
  };
  testing::TraceRecorder nb_rec, es_rec;
  const auto [nb_end, nb_params, nb_blocked] = run("nbsync", &nb_rec);
  const auto [es_end, es_params, es_blocked] = run("esync", &es_rec);
  EXPECT_EQ(local_rounds(nb_rec), local_rounds(es_rec));
  EXPECT_EQ(nb_end, es_end);
  EXPECT_EQ(nb_params, es_params) << "the same final model";
  for (std::size_t i = 2; i < nb_blocked.size(); ++i)  // outside the global server's DC
    EXPECT_GT(nb_blocked[i], 0.15) << "worker " << i << " waits for each model";
}

// An nbsync worker cut off and reported down: its DC's rounds go on without
// it; when it is heard from again, it is told where the job is, fetches the
// model, merges it and pushes again.
TEST(NbSync, AWorkerCutOffAndReportedDownCatchesUpWhenBack) {
  testing::TraceRecorder rec;
  testing::FakeJob fj(
      testing::small_scenario("hips", {R"(policy={"kind":"nbsync"})", "stop.rounds=40",
                                       "topology.dcs.1.worker_gflops=0.005", "topology.dcs.2.worker_gflops=0.005"}),
      &rec);
  const Deployment& dep = fj.job().deployment();
  const NodeId victim = dep.workers[0], parent = dep.nodes[std::size_t(victim)].parent;
  fj.run(from_seconds(0.2));
  fj.world().link(victim, parent).cut = true;
  fj.world().link(parent, victim).cut = true;
  fj.world().at(fj.world().now(), [&] { fj.actor(parent).on_peer_down(victim); });
  fj.world().run(fj.world().now() + from_seconds(1.5));
  const auto& gs = fj.role<GlobalServer>(dep.global_server);
  const std::int64_t rounds_while_cut = gs.rounds();
  fj.world().link(victim, parent).cut = false;
  fj.world().link(parent, victim).cut = false;
  const TimeNs back = fj.world().now();
  fj.world().at(back, [&] { fj.actor(parent).on_peer_up(victim); });  // what the failure detector reports
  fj.run();
  EXPECT_EQ(gs.rounds(), 40) << "the job finishes";
  EXPECT_GT(rounds_while_cut, 2) << "rounds went on without the cut-off worker";
  int pushes_after = 0;
  for (const auto& e : rec.events)
    if (e.kind == TraceKind::kWorkerPushed && e.node == victim && e.t > back) ++pushes_after;
  EXPECT_GT(pushes_after, 0) << "the worker pushes again once it is back";
}

}  // namespace
}  // namespace geotrain
