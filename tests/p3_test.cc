// P3 (core/layers/p3/p3_node.h): on the fake runtime a sliced message arrives bit for
// bit, first layers first; a step started on a sliced model is cut by exactly
// the forward work that could already run; malformed slices never reach a
// role. In ns-3 the thin-link scenario gains per round and trains the same;
// real mode runs it from the same file.
#include <gtest/gtest.h>

#include "core/codec/segment.h"
#include "core/json/json_reader.h"
#include "core/layers/p3/p3_node.h"
#include "core/testing/fake_world.h"
#include "sim/sim_runner.h"
#include "tests/dgt_test_util.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

using dgt_test::Pusher;
using dgt_test::Recorder;
using dgt_test::update;
using testing::FakeWorld;

P3Spec slices(std::uint64_t n) {
  P3Spec s;
  s.slice_elements = n;
  return s;
}

ParamSet model_of(const Payload& p) {
  ParamSet m;
  for (const auto& b : p.blocks) m.push_back({b.key, Eigen::VectorXf::Zero(b.values.size())});
  return m;
}

struct Pair {
  FakeWorld world;
  std::shared_ptr<Payload> sent = update(1.0f);
  std::unique_ptr<P3Node> a, b;
  Pusher* pusher = nullptr;
  Recorder* rec = nullptr;
  explicit Pair(P3Spec spec, double mbps = 10) {
    a = std::make_unique<P3Node>(world.runtime(0), spec, model_of(*sent));
    auto p = std::make_unique<Pusher>(*a);
    pusher = p.get();
    a->wrap(std::move(p));
    b = std::make_unique<P3Node>(world.runtime(1), spec, model_of(*sent));
    auto r = std::make_unique<Recorder>();
    rec = r.get();
    b->wrap(std::move(r));
    world.attach(0, a.get());
    world.attach(1, b.get());
    world.set_default_link({0.01, mbps, 0, false});
  }
};

TEST(P3, ASlicedMessageArrivesBitForBitOneMessageToTheRole) {
  Pair pair(slices(1000));
  pair.pusher->push(pair.sent, 7);
  pair.world.run();
  ASSERT_EQ(pair.rec->got.size(), 1u);
  const Message& m = pair.rec->got[0];
  EXPECT_EQ(m.kind, MsgKind::kPush);
  EXPECT_EQ(m.round, 7);
  EXPECT_EQ(m.parts, 0);
  EXPECT_EQ(m.payload->contributors, pair.sent->contributors);
  EXPECT_EQ(m.payload->loss_sum, pair.sent->loss_sum);
  ASSERT_EQ(m.payload->blocks.size(), pair.sent->blocks.size());
  for (std::size_t i = 0; i < m.payload->blocks.size(); ++i) {
    EXPECT_EQ(m.payload->blocks[i].key, pair.sent->blocks[i].key);
    EXPECT_EQ(m.payload->blocks[i].values, pair.sent->blocks[i].values);
  }
  // 3,172 and 12,388 entries in slices of 1,000: 4 + 13.
  EXPECT_EQ(pair.world.sent(0, 1).messages, 17u);
  const auto rep = pair.b->report(pair.world.now())["p3"];
  EXPECT_EQ(rep["assembled"], 1);
  EXPECT_EQ(rep["in_layer_order"], 1);
  EXPECT_EQ(pair.a->report(pair.world.now())["p3"]["parts_sent"], 17);
}

// Steps on every model it is handed; records how long each took.
struct Stepper : Actor {
  Runtime& rt;
  std::vector<double> took;
  explicit Stepper(Runtime& r) : rt(r) {}
  void start() override {}
  void on_message(const Message& m) override {
    if (m.kind != MsgKind::kPullResponse) return;
    const TimeNs t0 = rt.now();
    rt.compute(
        {1e9, 1}, [] {}, [this, t0] { took.push_back(to_seconds(rt.now() - t0)); });
  }
};

TEST(P3, AStepOnASlicedModelIsCutByTheForwardWorkThatCouldAlreadyRun) {
  FakeWorld world;
  world.set_compute([](NodeId, const ComputeCost& c, TimeNs, std::mt19937_64&) {
    return TimeNs(std::llround(c.flops));  // 1e9 flops: one second
  });
  // 1 Mbps: the second tensor (12,388 entries) takes 0.4 s after the first is in.
  world.set_default_link({0.01, 1, 0, false});
  const auto model = update(1.0f);
  P3Node server(world.runtime(0), slices(1000), model_of(*model));
  P3Node node(world.runtime(1), slices(1000), model_of(*model));
  Pusher quiet(server);
  server.wrap(std::make_unique<Pusher>(server));
  auto stepper = std::make_unique<Stepper>(node);
  Stepper* s = stepper.get();
  node.wrap(std::move(stepper));
  world.attach(0, &server);
  world.attach(1, &node);
  for (int k = 0; k < 2; ++k)
    world.at(TimeNs(k) * 5 * kNsPerSecond, [&] { server.send(make_message(MsgKind::kPullResponse, 0, 1, 1, model)); });
  world.run();
  ASSERT_EQ(s->took.size(), 2u);
  EXPECT_DOUBLE_EQ(s->took[0], 1.0) << "no step measured yet: nothing to overlap";
  // The first tensor's forward share (1/3 of the step times its 3,172 / 15,560
  // of the entries) runs while the second still arrives.
  const double first_share = 3172.0 / (3172.0 + 12388.0);
  EXPECT_NEAR(s->took[1], 1.0 - first_share / 3, 1e-6);
  EXPECT_EQ(node.report(world.now())["p3"]["early_steps"], 1);
}

TEST(P3, MalformedSlicesAreRefusedAndCountedAndNeverReachTheRole) {
  Pair pair(slices(1000));
  Runtime& raw = pair.world.runtime(0);  // under the layer: anything at all
  const auto part = [&](std::shared_ptr<Payload> p, std::uint32_t seq, std::uint16_t i, std::uint16_t n) {
    Message m = make_message(MsgKind::kPush, 0, 1, 0, std::move(p));
    m.seq = seq;
    m.part = i;
    m.parts = n;
    raw.send(m);
  };
  const auto slice_of = [](std::uint32_t key, std::uint32_t n) {
    auto p = std::make_shared<Payload>();
    const Eigen::VectorXf v = Eigen::VectorXf::Ones(10);
    p->coded.push_back(encode_segment(key, n, 0, v.data(), 10));
    return p;
  };
  auto dense = std::make_shared<Payload>();
  dense->blocks.push_back({1, Eigen::VectorXf::Ones(3172)});
  part(dense, 1, 0, 2);               // a dense block, not a slice
  part(slice_of(99, 3172), 2, 0, 2);  // a tensor the model does not have
  part(slice_of(1, 3172), 3, 0, 3);
  part(slice_of(1, 3172), 3, 0, 3);  // the same slice again
  part(slice_of(1, 3172), 3, 1, 4);  // the count changed
  pair.world.run();
  EXPECT_TRUE(pair.rec->got.empty());
  EXPECT_EQ(pair.b->report(pair.world.now())["p3"]["rejected"], 4);
}

TEST(P3Config, DoesNotCombineWithDgtOrScheduling) {
  for (const auto& extra : {std::string(R"(dgt={"mode":1})"), std::string("schedule.wan.kind=graph")}) {
    try {
      load_scenario(testing::source_path("scenarios/p3-thin-on.json"), {extra});
      ADD_FAILURE() << extra << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find("p3 does not combine"), std::string::npos) << e.what();
    }
  }
}

TEST(P3Scenario, OnAThinLinkP3GainsPerRoundTrainsTheSameAndRunsInRealMode) {
  const std::vector<std::string> sets = {"stop.rounds=30"};
  const nlohmann::json off =
      summary_json(sim::run_simulation(load_scenario(testing::source_path("scenarios/p3-thin-off.json"), sets)));
  const nlohmann::json on =
      summary_json(sim::run_simulation(load_scenario(testing::source_path("scenarios/p3-thin-on.json"), sets)));
  EXPECT_LT(on["time_per_round_s"].get<double>(), 0.99 * off["time_per_round_s"].get<double>());
  // Slicing is exact and the rounds are the same rounds: the same training.
  EXPECT_EQ(on["final_test_accuracy"], off["final_test_accuracy"]);
  EXPECT_GT(on["p3"]["early_steps"], 0);
  EXPECT_EQ(on["p3"]["in_layer_order"], on["p3"]["assembled"]);
  EXPECT_EQ(on["p3"]["rejected"], 0);
  // Real mode, from the same file.
  const nlohmann::json real =
      testing::launch_summary(testing::source_path("scenarios/p3-thin-on.json"), testing::small_sets(4), "p3-thin");
  ASSERT_FALSE(real.is_null());
  EXPECT_EQ(real["rounds"], 4);
  ASSERT_TRUE(real["p3"].is_object());
  EXPECT_GT(real["p3"]["assembled"], 0);
  EXPECT_EQ(real["p3"]["rejected"], 0);
}

}  // namespace
}  // namespace geotrain
