// The fake in-memory runtime (core/testing/) and the roles on it: ordering and
// timing of the world itself, then the protocol's properties without ns-3:
// synchronous rounds, a worker reported down, a worker process restarted.
#include <gtest/gtest.h>

#include <map>

#include "core/roles/global_server.h"
#include "core/roles/worker.h"
#include "core/testing/fake_job.h"
#include "core/testing/fake_world.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::FakeJob;
using testing::FakeWorld;

class Inbox : public Actor {
 public:
  void start() override {}
  void on_message(const Message& m) override { got.push_back(m); }
  std::vector<Message> got;
};

Message sized(std::int64_t round, std::uint64_t bytes, Channel ch = Channel::kReliable) {
  Message m = make_message(MsgKind::kPush, 0, 1, round);
  m.wire_bytes = bytes;
  m.channel = ch;
  return m;
}

TEST(FakeWorld, APairIsAFifoLinkWithSerialisationAndLatency) {
  FakeWorld w;
  w.set_link(0, 1, {0.010, 8, 0, false});  // 10 ms, 8 Mbps: 1 MB takes 1 s
  Inbox in;
  w.attach(1, &in);
  std::vector<TimeNs> at;
  w.attach(1, &in);
  w.at(0, [&] {
    w.runtime(0).send(sized(0, 1'000'000));
    w.runtime(0).send(sized(1, 1'000'000));
  });
  w.run();
  ASSERT_EQ(in.got.size(), 2u);
  EXPECT_EQ(in.got[0].round, 0);
  EXPECT_EQ(in.got[1].round, 1);
  EXPECT_EQ(w.now(), from_seconds(2.010));  // the second waits for the first
  EXPECT_EQ(w.sent(0, 1).messages, 2u);
}

TEST(FakeWorld, BestEffortIsLostAtTheLinksRateReliableNever) {
  FakeWorld w(7);
  w.set_link(0, 1, {0, 0, 0.3, false});
  Inbox in;
  w.attach(1, &in);
  w.at(0, [&] {
    for (int i = 0; i < 1000; ++i) w.runtime(0).send(sized(i, 100, Channel::kBestEffort));
    for (int i = 0; i < 100; ++i) w.runtime(0).send(sized(i, 100));
  });
  w.run();
  EXPECT_NEAR(double(w.sent(0, 1).lost), 300, 50);
  EXPECT_EQ(in.got.size(), 1100 - w.sent(0, 1).lost);
}

TEST(FakeWorld, CancelledAndDeadTimersNeverFire) {
  FakeWorld w;
  int fired = 0;
  Runtime& rt = w.runtime(3);
  const TimerId a = rt.schedule(10, [&] { ++fired; });
  rt.schedule(20, [&] { fired += 10; });
  rt.cancel(a);
  w.replace_runtime(3).schedule(30, [&] { fired += 100; });
  w.run();
  EXPECT_EQ(fired, 100);
}

using Recorder = testing::TraceRecorder;

// Synchronous rounds on the fake runtime: no worker is acked for a round
// before the global server applied it, and every worker steps once a round.
TEST(FakeRoles, HipsRoundsAreSynchronous) {
  Recorder rec;
  FakeJob fj(testing::small_scenario("hips", {"stop.rounds=20"}), &rec);
  fj.run();
  std::map<std::int64_t, TimeNs> applied;
  for (const auto& e : rec.events)
    if (e.kind == TraceKind::kGlobalApplied) applied[e.round] = e.t;
  ASSERT_EQ(applied.size(), 20u);
  int acks = 0, steps = 0;
  for (const auto& e : rec.events) {
    if (e.kind == TraceKind::kStepDone) ++steps;
    if (e.kind != TraceKind::kWorkerAcked) continue;
    ++acks;
    EXPECT_GT(e.t, applied.at(e.round));
  }
  EXPECT_EQ(acks, 4 * 19);
  EXPECT_EQ(steps, 4 * 20);
}

// A worker whose link is cut and that its local server is told is down: the
// local server stops waiting for it and the job goes on with the other workers.
TEST(FakeRoles, AWorkerReportedDownIsNoLongerWaitedFor) {
  FakeJob fj(testing::small_scenario("hips", {"stop.rounds=30"}));
  const Deployment& dep = fj.job().deployment();
  NodeId victim = -1, parent = -1;
  for (const auto& n : dep.nodes)
    if (n.role == Role::kWorker) {
      victim = n.id;
      parent = n.parent;
      break;
    }
  fj.run(from_seconds(1));
  const auto& gs = fj.role<GlobalServer>(dep.global_server);
  const std::int64_t before = gs.rounds();
  fj.world().link(victim, parent).cut = true;
  fj.world().link(parent, victim).cut = true;
  fj.world().run(fj.world().now() + from_seconds(2));
  EXPECT_LE(gs.rounds(), before + 1) << "without the report the round waits for the lost worker";
  fj.world().at(fj.world().now(), [&] { fj.actor(parent).on_peer_down(victim); });
  fj.run();
  EXPECT_EQ(gs.rounds(), 30) << "told, the local server completes rounds without it";
}

// A worker process restarted mid-run pulls the current model and steps again.
TEST(FakeRoles, ARestartedWorkerRejoinsAndStepsAgain) {
  Recorder rec;
  FakeJob fj(testing::small_scenario("hips", {"stop.rounds=40"}), &rec);
  NodeId w = -1;
  for (const auto& n : fj.job().deployment().nodes)
    if (n.role == Role::kWorker) w = n.id;
  fj.run(from_seconds(1));
  fj.restart(w);
  fj.run();
  const auto& gs = fj.role<GlobalServer>(fj.job().deployment().global_server);
  EXPECT_EQ(gs.rounds(), 40);
  int after = 0;
  for (const auto& e : rec.events)
    if (e.kind == TraceKind::kStepDone && e.node == w && e.t > from_seconds(1)) ++after;
  EXPECT_GT(after, 0) << "the restarted worker trains again";
  EXPECT_GT(fj.role<Worker>(w).stats().steps, 0);
}

}  // namespace
}  // namespace geotrain
