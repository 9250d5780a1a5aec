// Gaia on the fake runtime: only significant change crosses the WAN, a DC's
// copy of the global model is rebuilt from changes exactly, the mirror clock
// bounds how far a DC runs between syncs, and the selective barrier is
// selective.
#include <gtest/gtest.h>

#include "core/payload/sparse_payload.h"
#include "core/payload/wire.h"
#include "core/roles/global_server.h"
#include "core/roles/local_server.h"
#include "core/testing/fake_job.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

std::unique_ptr<testing::FakeJob> gaia_job(const std::string& policy, int rounds) {
  return std::make_unique<testing::FakeJob>(testing::small_scenario(
      "hips", {"policy=" + policy, "stop.rounds=" + std::to_string(rounds), R"(optimizer={"kind":"sgd","lr":0.1})"}));
}

// Bytes per push a DC's local server sent the global server.
double push_bytes_per_sync(testing::FakeJob& fj) {
  const Deployment& dep = fj.job().deployment();
  std::uint64_t bytes = 0, messages = 0;
  for (const auto& n : dep.nodes)
    if (n.role == Role::kLocalServer) {
      bytes += fj.world().sent(n.id, dep.global_server).bytes;
      messages += fj.world().sent(n.id, dep.global_server).messages;
    }
  return messages ? double(bytes) / double(messages) : 0;
}

TEST(Gaia, OnlySignificantChangeCrossesTheWan) {
  double previous = 0;
  for (const char* t : {"0", "0.01", "0.1", "1"}) {
    auto fj = gaia_job(std::string(R"({"kind":"gaia","threshold":)") + t + "}", 30);
    fj->run();
    const double per_push = push_bytes_per_sync(*fj);
    if (previous == 0) {  // every changed entry crosses, densely or (where fewer than half changed) sparsely
      EXPECT_LE(per_push, double(dense_wire_bytes(fj->job().initial_params()))) << "threshold 0";
    } else {
      EXPECT_LT(per_push, previous) << "threshold " << t;
    }
    previous = per_push;
  }
  EXPECT_LT(previous, 0.2 * double(dense_wire_bytes(gaia_job(R"({"kind":"gaia"})", 1)->job().initial_params())))
      << "at threshold 1 (100% of the weight) few entries cross";
}

// Pulls from the global server as a child would, keeping its copy by changes.
class Probe : public Actor {
 public:
  Probe(Runtime& rt, NodeId self, NodeId server, ParamSet initial) : rt_(rt), self_(self), server_(server) {
    copy_.blocks = std::move(initial);
  }
  void start() override {}
  void pull() { rt_.send(make_message(MsgKind::kPullRequest, self_, server_, 0)); }
  void on_message(const Message& msg) override {
    if (msg.kind != MsgKind::kPullResponse) return;
    accumulate(copy_, *msg.payload);
    sizes.push_back(msg.wire_bytes);
    empty.push_back(!carries_entries(*msg.payload));
    if (on_response) on_response();
  }
  std::vector<std::uint64_t> sizes;
  std::vector<bool> empty;
  std::function<void()> on_response;
  const ParamSet& copy() const { return copy_.blocks; }

 private:
  Runtime& rt_;
  NodeId self_, server_;
  Payload copy_;
};

TEST(Gaia, ACopyKeptByPulledChangesIsTheServersModelBitForBit) {
  auto fj = gaia_job(R"({"kind":"gaia"})", 1000);
  fj->run(2 * kNsPerSecond);  // training under way, the server's model far from the initial one
  const Deployment& dep = fj->job().deployment();
  const NodeId probe_id = NodeId(dep.nodes.size());
  Probe probe(fj->world().runtime(probe_id), probe_id, dep.global_server, fj->job().initial_params());
  fj->world().attach(probe_id, &probe);
  const auto& gs = fj->role<GlobalServer>(dep.global_server);
  float diff = -1;
  probe.on_response = [&] {  // pull again until a pull brings nothing new, then compare
    if (probe.empty.back() || probe.sizes.size() == 4) {
      diff = max_abs_diff(probe.copy(), gs.params());
      fj->world().stop();
    } else {
      probe.pull();
    }
  };
  probe.pull();
  fj->run();
  ASSERT_GE(probe.sizes.size(), 2u);
  EXPECT_TRUE(probe.empty.back()) << "a pull with nothing changed carries no entry";
  EXPECT_EQ(diff, 0.0f) << "the copy is the server's model exactly";
  EXPECT_EQ(probe.sizes.back(), kMessageHeaderBytes + kPayloadHeaderBytes + 4 * (kCodedHeaderBytes + 4))
      << "and costs only headers (4 empty sparse blocks)";
}

nlohmann::json local_report(testing::FakeJob& fj, NodeId ls) { return fj.role<LocalServer>(ls).report(0); }

std::vector<NodeId> local_servers(const Deployment& dep) {
  std::vector<NodeId> out;
  for (const auto& n : dep.nodes)
    if (n.role == Role::kLocalServer) out.push_back(n.id);
  return out;
}

// A WAN whose syncs take many local rounds (0.1 s each way; a local round takes milliseconds).
void slow_wan(testing::FakeJob& fj) {
  const Deployment& dep = fj.job().deployment();
  for (NodeId ls : local_servers(dep)) {
    fj.world().set_link(ls, dep.global_server, {0.1, 0, 0, false});
    fj.world().set_link(dep.global_server, ls, {0.1, 0, 0, false});
  }
}

TEST(Gaia, TheMirrorClockBoundsHowFarADcRunsBetweenSyncs) {
  for (int clock : {3, 1000000}) {  // 1e6: unbounded (a local round takes about 0.2 ms here)
    auto fj = gaia_job(R"({"kind":"gaia","mirror_clock":)" + std::to_string(clock) + "}", 12);
    const Deployment& dep = fj->job().deployment();
    slow_wan(*fj);
    fj->run();
    for (NodeId ls : local_servers(dep)) {
      const nlohmann::json r = local_report(*fj, ls);
      const std::int64_t rounds = r["local_rounds"], syncs = r["syncs"];
      ASSERT_GT(syncs, 0);
      if (clock == 3) {
        EXPECT_LE(rounds, 3 * (syncs + 1)) << "at most 3 rounds past the last completed sync";
        EXPECT_GT(r["held_by_mirror_clock"].get<int>(), 0);
      } else {
        EXPECT_GT(rounds, 3 * (syncs + 1)) << "unbounded, the DC runs on";
        EXPECT_EQ(r["held_by_mirror_clock"].get<int>(), 0);
      }
    }
  }
}

// Held rounds plus barrier-only pulls, over every DC.
std::int64_t barrier_waits(const std::string& policy) {
  auto fj = gaia_job(policy, 20);
  slow_wan(*fj);  // and the mirror clock set out of the way: what holds a DC is the barrier
  fj->run();
  std::int64_t n = 0;
  for (NodeId ls : local_servers(fj->job().deployment())) {
    const nlohmann::json r = local_report(*fj, ls);
    n += r["held_by_barrier"].get<std::int64_t>() + r["barrier_pulls"].get<std::int64_t>();
  }
  return n;
}

TEST(Gaia, TheSelectiveBarrierIsWhatHoldsADcWhenTheMirrorClockDoesNot) {
  EXPECT_GT(barrier_waits(R"({"kind":"gaia","mirror_clock":1000})"), 0);
  EXPECT_EQ(barrier_waits(R"({"kind":"gaia","mirror_clock":1000,"selective_barrier":0})"), 0);
}

}  // namespace
}  // namespace geotrain
