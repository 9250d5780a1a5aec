// Push and pull in one exchange: under a policy whose children wait for the
// model, a server follows each acknowledgement with the model, unasked, so a
// synchronous round costs one trip up and one down per tier (ps-lite's
// ZPushPull); a policy whose workers do not wait still asks for the model.
#include <gtest/gtest.h>

#include <map>

#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

struct Traffic {
  std::map<MsgKind, int> sent;  // messages by kind
  TimeNs end = 0;               // when the last round was applied (the job stopped)
  std::int64_t rounds = 0;
};

// `rounds` rounds on a world where every link is `latency_s` long and infinitely
// fast and every step takes kStepS: what is left of a round's time is its trips.
constexpr double kStepS = 0.01;

Traffic run(const std::string& architecture, const std::string& policy, int rounds, double latency_s) {
  const Scenario sc = testing::small_scenario(
      architecture, {"policy.kind=" + policy, "stop.rounds=" + std::to_string(rounds), "eval.every_rounds=1000"});
  testing::FakeJob fj(sc);
  const Deployment& dep = fj.job().deployment();
  for (const auto& a : dep.nodes)
    for (const auto& b : dep.nodes)
      if (a.id != b.id) fj.world().set_link(a.id, b.id, {latency_s, 0, 0, false});
  fj.world().set_compute([](NodeId, const ComputeCost&, TimeNs, std::mt19937_64&) { return from_seconds(kStepS); });
  Traffic t;
  fj.world().observe([&](const Message& m) { ++t.sent[m.kind]; });
  fj.run();
  t.end = fj.world().now();
  t.rounds = fj.actor(dep.global_server).report(t.end)["rounds"].get<std::int64_t>();
  return t;
}

TEST(RoundTrip, AFlatBspRoundCostsTwoOneWayTripsAndNoPullRequest) {
  const double L = 0.05;
  const int R = 12;
  Traffic t = run("flat", "bsp", R, L);
  ASSERT_EQ(t.rounds, R);
  // Round 1 is applied a step and a trip after the start (the pushes' trip);
  // every later one two trips and a step after the one before (the model's
  // trip down, the step, the push's trip up). Asking would add a trip a round.
  EXPECT_NEAR(to_seconds(t.end), R * kStepS + (2 * R - 1) * L, 1e-6);
  EXPECT_EQ(t.sent[MsgKind::kPullRequest], 0);
  // Per worker and round: its push, the ack and the model (the last round's
  // ack and model are not sent: the job stopped).
  EXPECT_EQ(t.sent[MsgKind::kPullResponse], t.sent[MsgKind::kPushAck]);
  EXPECT_EQ(t.sent[MsgKind::kPush], 4 * R);
  EXPECT_EQ(t.sent[MsgKind::kPullResponse], 4 * (R - 1));
}

TEST(RoundTrip, AHipsBspRoundCostsTwoOneWayTripsOnEachTier) {
  const double L = 0.05;
  const int R = 12;
  Traffic t = run("hips", "bsp", R, L);
  ASSERT_EQ(t.rounds, R);
  // Worker to local server to global server and back: four trips a round.
  EXPECT_NEAR(to_seconds(t.end), R * kStepS + (4 * R - 2) * L, 1e-6);
  EXPECT_EQ(t.sent[MsgKind::kPullRequest], 0);
}

TEST(RoundTrip, WorkersThatDoNotWaitStillAskForTheModel) {
  Traffic t = run("flat", "asp", 12, 0.05);
  EXPECT_GT(t.sent[MsgKind::kPullRequest], 0);
  EXPECT_EQ(t.sent[MsgKind::kPullRequest], t.sent[MsgKind::kPullResponse]);
}

}  // namespace
}  // namespace geotrain
