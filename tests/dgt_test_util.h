// What the DGT tests share: a node that pushes what it is given, one that
// records the pushes it receives, test updates, and the check that a received
// push is the sent one with whole blocks zeroed.
#pragma once
#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "core/runtime/runtime.h"
#include "core/topology/topology.h"

namespace geotrain::dgt_test {

constexpr int kBlock = 1024;  // floats per 4096-byte block

// Pushes what push() is given, from `from` to `to`; records nothing.
struct Pusher : Actor {
  Runtime& rt;
  NodeId from = 0, to = 1;
  explicit Pusher(Runtime& r, NodeId f = 0, NodeId t = 1) : rt(r), from(f), to(t) {}
  void start() override {}
  void on_message(const Message&) override {}
  void push(std::shared_ptr<const Payload> p, std::int64_t round) {
    rt.send(make_message(MsgKind::kPush, from, to, round, std::move(p)));
  }
};
struct Recorder : Actor {
  std::vector<Message> got;
  void start() override {}
  void on_message(const Message& m) override { got.push_back(m); }
};

inline Topology two_dcs(double mbps) {
  Topology t;
  t.dcs.resize(2);
  t.wan.push_back({0, 1, {mbps, 10, 0, {}}});
  return t;
}

// Two tensors (keys 1 and 4, of 3 * unit * key blocks and a 100-entry tail)
// whose block j has mean magnitude about j + 1.
inline std::shared_ptr<Payload> update(float scale, double loss = 1.0, int unit = 1) {
  auto p = std::make_shared<Payload>();
  for (std::uint32_t key : {1u, 4u}) {
    const int n = int(key) * 3 * unit * kBlock + 100;
    Eigen::VectorXf v(n);
    for (int i = 0; i < n; ++i)
      v[i] = scale * float((i / kBlock + 1) * (i % 2 ? 1 : -1)) * (1.0f + 0.001f * float(i % 7));
    p->blocks.push_back({key, v});
  }
  p->contributors = 2;
  p->loss_sum = 2 * loss;
  return p;
}

// The model whose tensors update() fills (what a DgtNode accepts parts for).
inline ParamSet dgt_model(int unit = 1) { return update(0.0f, 1.0, unit)->blocks; }

// Each block of `got` is either exactly `sent`'s or all zeros; returns how many are zeros.
inline int zeroed_blocks(const Payload& sent, const Payload& got) {
  EXPECT_EQ(got.blocks.size(), sent.blocks.size());
  int zeros = 0;
  for (std::size_t t = 0; t < sent.blocks.size(); ++t) {
    const Eigen::VectorXf &s = sent.blocks[t].values, &g = got.blocks[t].values;
    EXPECT_EQ(got.blocks[t].key, sent.blocks[t].key);
    if (g.size() != s.size()) return -1;
    for (Eigen::Index lo = 0; lo < s.size(); lo += kBlock) {
      const Eigen::Index len = std::min<Eigen::Index>(kBlock, s.size() - lo);
      if (g.segment(lo, len) == s.segment(lo, len)) continue;
      EXPECT_TRUE(g.segment(lo, len).isZero(0)) << "key " << sent.blocks[t].key << " block " << lo / kBlock;
      EXPECT_LT(lo + len, s.size()) << "the last block always arrives";
      ++zeros;
    }
  }
  return zeros;
}

}  // namespace geotrain::dgt_test
