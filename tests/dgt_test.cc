// DGT (core/layers/dgt/dgt_node.h) on the fake runtime: a push sent in parts arrives
// as the push that was sent, with exactly the lost blocks zeroed; late blocks
// go into the next push; K adapts; malformed parts never touch a sum.
#include <gtest/gtest.h>

#include "core/codec/segment.h"
#include "core/layers/dgt/dgt_node.h"
#include "core/testing/fake_world.h"
#include "tests/dgt_test_util.h"

namespace geotrain {
namespace {

using testing::FakeWorld;
using namespace dgt_test;

// A spec of `mode` with a fixed K (adaptive K off unless k_min is given).
DgtSpec fixed(int mode, double k, double deadline_ms = 50) {
  DgtSpec spec;
  spec.mode = mode;
  spec.k = k;
  spec.k_min = std::min(k, spec.k_min);
  spec.adaptive = false;
  spec.deadline_ms = deadline_ms;
  return spec;
}

struct Pair {
  FakeWorld world;
  Topology topo = two_dcs(100);
  std::unique_ptr<DgtNode> a, b;
  Pusher* pusher = nullptr;
  Recorder* rec = nullptr;
  explicit Pair(DgtSpec spec) {
    a = std::make_unique<DgtNode>(world.runtime(0), spec, std::vector<int>{0, 1}, topo, dgt_model());
    auto p = std::make_unique<Pusher>(*a);
    pusher = p.get();
    a->wrap(std::move(p));
    b = std::make_unique<DgtNode>(world.runtime(1), spec, std::vector<int>{0, 1}, topo, dgt_model());
    auto r = std::make_unique<Recorder>();
    rec = r.get();
    b->wrap(std::move(r));
    world.attach(0, a.get());
    world.attach(1, b.get());
    world.set_default_link({0.01, 100, 0, false});
  }
};

TEST(Dgt, WithKOneAndNoLossThePushArrivesBitForBit) {
  Pair w(fixed(1, 1));
  const auto sent = update(0.5f);
  w.pusher->push(sent, 7);
  w.world.run();
  ASSERT_EQ(w.rec->got.size(), 1u);
  const Message& m = w.rec->got[0];
  EXPECT_EQ(m.kind, MsgKind::kPush);
  EXPECT_EQ(m.from, 0);
  EXPECT_EQ(m.round, 7);
  EXPECT_EQ(m.payload->contributors, sent->contributors);
  EXPECT_EQ(m.payload->loss_sum, sent->loss_sum);
  EXPECT_EQ(zeroed_blocks(*sent, *m.payload), 0);
  const auto r = w.a->report(0)["dgt"];
  EXPECT_EQ(r["sent"][1].get<int>() + r["sent"][2].get<int>() + r["sent"][3].get<int>(), 0) << "nothing best-effort";
}

TEST(Dgt, LostBlocksArriveAsZerosAndNothingElseChanges) {
  Pair w(fixed(1, 0.3));
  w.world.set_default_link({0.01, 100, 0.4, false});  // best-effort parts: 40% lost
  const auto sent = update(1.0f);
  w.pusher->push(sent, 1);
  w.world.run();
  ASSERT_EQ(w.rec->got.size(), 1u);
  const int zeros = zeroed_blocks(*sent, *w.rec->got[0].payload);
  const auto sender = w.a->report(0)["dgt"], receiver = w.b->report(0)["dgt"];
  int sent_be = 0, got_be = 0;
  for (int c = 1; c <= 3; ++c) {
    sent_be += sender["sent"][c].get<int>();
    got_be += receiver["on_time"][c].get<int>();
  }
  EXPECT_GT(zeros, 0);
  EXPECT_EQ(zeros, sent_be - got_be) << "every lost block, and only those, is zero";
  EXPECT_EQ(sender["sent"][0], receiver["on_time"][0]) << "the reliable blocks all arrive";
  // The reliable blocks are the most important ones: the lost are all from the lower ranks.
  // (Block j of a tensor has mean magnitude ~ j + 1, so the first blocks are the least important.)
  const Payload& got = *w.rec->got[0].payload;
  const Eigen::VectorXf& big = got.blocks[1].values;  // key 4: 13 blocks, block 11 the largest but the last
  for (int j = 8; j <= 11; ++j) EXPECT_FALSE(big.segment(j * kBlock, kBlock).isZero(0)) << "a top block went reliably";
}

TEST(Dgt, LateBlocksAreAddedIntoTheSendersNextPush) {
  Pair w(fixed(1, 0.5, 0));  // assemble as soon as the marker is in: every best-effort part is late
  const auto first = update(1.0f), second = update(-3.0f);
  w.pusher->push(first, 1);
  w.world.run();
  w.pusher->push(second, 2);
  w.world.run();
  ASSERT_EQ(w.rec->got.size(), 2u);
  const Payload &got1 = *w.rec->got[0].payload, &got2 = *w.rec->got[1].payload;
  const int late = zeroed_blocks(*first, got1);
  EXPECT_GT(late, 0);
  // Whatever the first push lacked arrived with the second, added to it; the
  // second's own best-effort blocks are still to come (late for a third push).
  for (std::size_t t = 0; t < first->blocks.size(); ++t) {
    const Eigen::VectorXf &g1 = got1.blocks[t].values, &g2 = got2.blocks[t].values;
    const Eigen::VectorXf &s1 = first->blocks[t].values, &s2 = second->blocks[t].values;
    for (Eigen::Index lo = 0; lo < s1.size(); lo += kBlock) {
      const Eigen::Index len = std::min<Eigen::Index>(kBlock, s1.size() - lo);
      const bool reliable = !g1.segment(lo, len).isZero(0);  // the same blocks rank on top in both pushes
      const Eigen::VectorXf want = reliable ? s2.segment(lo, len) : s1.segment(lo, len);
      EXPECT_EQ(g2.segment(lo, len), want) << "key " << first->blocks[t].key << " block " << lo / kBlock;
    }
  }
  EXPECT_EQ(w.b->report(0)["dgt"]["late"][1].get<int>() + w.b->report(0)["dgt"]["late"][2].get<int>() +
                w.b->report(0)["dgt"]["late"][3].get<int>(),
            2 * late)
      << "both pushes' best-effort parts came late";
}

TEST(Dgt, AdaptiveKFallsWithTheTrainingLossDownToKMin) {
  DgtSpec spec = fixed(2, 0.8);
  spec.k_min = 0.25;
  spec.adaptive = true;
  Pair w(spec);
  for (int i = 0; i < 5; ++i) {
    w.pusher->push(update(1.0f, 2.0 / (1 << i)), i);  // loss 2, 1, 0.5, 0.25, 0.125
    w.world.run();
  }
  const auto k = w.a->report(0)["dgt"]["k_history"];
  ASSERT_EQ(k.size(), 5u);
  EXPECT_DOUBLE_EQ(k[0][1].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(k[1][1].get<double>(), 0.4);
  EXPECT_DOUBLE_EQ(k[2][1].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(k[4][1].get<double>(), 0.25);
  EXPECT_EQ(w.rec->got.size(), 5u);
}

TEST(Dgt, Mode3QuantisesOnlyTheUnimportantBlocks) {
  Pair w(fixed(3, 0.5, 1000));
  const auto sent = update(1.0f);
  w.pusher->push(sent, 1);
  w.world.run();
  ASSERT_EQ(w.rec->got.size(), 1u);
  int exact = 0, close = 0;
  for (std::size_t t = 0; t < sent->blocks.size(); ++t) {
    const Eigen::VectorXf &s = sent->blocks[t].values, &g = w.rec->got[0].payload->blocks[t].values;
    for (Eigen::Index lo = 0; lo < s.size(); lo += kBlock) {
      const Eigen::Index len = std::min<Eigen::Index>(kBlock, s.size() - lo);
      const float range = s.segment(lo, len).maxCoeff() - s.segment(lo, len).minCoeff();
      if (g.segment(lo, len) == s.segment(lo, len))
        ++exact;
      else if ((g.segment(lo, len) - s.segment(lo, len)).cwiseAbs().maxCoeff() <= range / 32 * 1.0001f)
        ++close;  // within half a bin of 16 over the block's range
    }
  }
  EXPECT_GT(close, 0);
  EXPECT_GT(exact, 0);
  EXPECT_EQ(exact + close, 2 + 2 + 3 * 5 - 2) << "every block exact or within half a 4-bit bin";
}

TEST(Dgt, MalformedPartsAreDroppedAndCountedWithoutTouchingTheSum) {
  Pair w(fixed(1, 1));
  // A part with no total, a part past its total, and a block of a tensor the push does not have.
  Message bad = make_message(MsgKind::kPushPart, 0, 1, 1, std::make_shared<Payload>());
  bad.parts = 0;
  w.world.runtime(0).send(bad);
  bad.parts = 3;
  bad.part = 3;
  w.world.runtime(0).send(bad);
  auto stray = std::make_shared<Payload>();
  const float junk[4] = {1e30f, 1e30f, 1e30f, 1e30f};
  stray->coded.push_back(encode_segment(99, 4, 0, junk, 4));
  Message orphan = make_message(MsgKind::kPushPart, 0, 1, 1, stray);
  orphan.seq = 1;  // the seq the real push will take
  orphan.part = 5;
  orphan.parts = 6;
  w.world.runtime(0).send(orphan);
  w.world.run();
  const auto sent = update(0.5f);
  w.pusher->push(sent, 1);
  w.world.run();
  ASSERT_EQ(w.rec->got.size(), 1u);
  EXPECT_EQ(zeroed_blocks(*sent, *w.rec->got[0].payload), 0);
  EXPECT_EQ(w.b->report(0)["dgt"]["rejected"].get<int>(), 3);
}

// Hostile or replayed parts. Every part delivered twice (a replay past the transport) counts once,
// so the push arrives exactly as sent, never doubled.
struct Twice : Actor {
  Actor* to = nullptr;
  void start() override {}
  void on_message(const Message& m) override {
    to->on_message(m);
    to->on_message(m);
  }
};

TEST(Dgt, RepeatedPartsAreDroppedAndTheSumIsNotDoubled) {
  Pair w(fixed(1, 0.3));
  Twice twice;
  twice.to = w.b.get();
  w.world.attach(1, &twice);
  const auto sent = update(1.0f);
  w.pusher->push(sent, 1);
  w.world.run();
  ASSERT_EQ(w.rec->got.size(), 1u);
  EXPECT_EQ(zeroed_blocks(*sent, *w.rec->got[0].payload), 0) << "each block exactly once";
  for (std::size_t k = 0; k < sent->blocks.size(); ++k)
    EXPECT_EQ(w.rec->got[0].payload->blocks[k].values, sent->blocks[k].values) << "not doubled";
  EXPECT_GT(w.b->report(0)["dgt"]["rejected"].get<int>(), 0);
}

// A sender cannot make the receiver hold more than a few unfinished pushes, and a marker naming a
// tensor longer than the model's allocates nothing.
TEST(Dgt, FloodsOfUnfinishedPushesAndOversizedTensorsStayBounded) {
  Pair w(fixed(1, 0.3));
  Message m;
  m.kind = MsgKind::kPushPart;
  m.from = 0;
  m.to = 1;
  m.parts = 3;
  m.part = 1;
  for (std::uint32_t seq = 1; seq <= 1000; ++seq) {  // part 1 of 1000 pushes that never finish
    m.seq = seq;
    m.payload = std::make_shared<Payload>();
    w.b->on_message(m);
  }
  EXPECT_GE(w.b->report(0)["dgt"]["rejected"].get<int>(), 1000 - 16) << "all but the newest few dropped";
  auto marker = std::make_shared<Payload>();
  CodedBlock huge;
  huge.key = 1;
  huge.n = 1u << 31;  // 8 GB of zeros, were it believed
  huge.codec = kSegmentCodecId;
  marker->coded.push_back(huge);
  m.seq = 2000;
  m.part = 0;
  m.parts = 2;
  m.payload = marker;
  const int before = w.b->report(0)["dgt"]["rejected"].get<int>();
  w.b->on_message(m);
  w.world.run();  // the deadline assembles what there is
  EXPECT_GE(w.b->report(0)["dgt"]["rejected"].get<int>(), before + 2) << "the oldest pending push, then the tensor";
  ASSERT_EQ(w.rec->got.size(), 1u);
  EXPECT_TRUE(w.rec->got[0].payload->blocks.empty()) << "no tensor allocated for it";
}

}  // namespace
}  // namespace geotrain
