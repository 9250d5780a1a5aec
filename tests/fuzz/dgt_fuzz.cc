// libFuzzer target: DGT's receiver (core/layers/dgt/dgt_node.h) against a hostile
// sender. Input: records of [2 bytes length][wire-encoded message]; each that
// decodes (core/payload/wire.h) is made a push part from node 0 to node 1 (its seq,
// part and parts as the fuzzer wrote them: forged, replayed, reordered,
// truncated) and handed to the receiver, with 20 ms of the fake world's time
// between records so deadlines fire. Whatever arrives at the role must be
// finite tensors of the model's keys and no longer than the model's.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "core/layers/dgt/dgt_node.h"
#include "core/payload/wire.h"
#include "core/testing/fake_world.h"

using namespace geotrain;

namespace {

ParamSet model() {
  ParamSet m;
  m.push_back({1, Eigen::VectorXf::Zero(3000)});
  m.push_back({4, Eigen::VectorXf::Zero(9000)});
  return m;
}

struct Checker : Actor {
  void start() override {}
  void on_message(const Message& m) override {
    if (!m.payload) return;
    for (const auto& b : m.payload->blocks) {
      if (b.key != 1 && b.key != 4) std::abort();                      // a tensor the model does not have
      if (b.values.size() > (b.key == 1 ? 3000 : 9000)) std::abort();  // longer than the model's
      if (!b.values.allFinite()) std::abort();                         // poisoned
    }
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  testing::FakeWorld world;
  Topology topo;
  topo.dcs.resize(2);
  DgtSpec spec;
  spec.mode = 1;
  DgtNode rx(world.runtime(1), spec, {0, 1}, topo, model());
  rx.wrap(std::make_unique<Checker>());
  world.attach(1, &rx);
  std::size_t at = 0;
  while (at + 2 <= size) {
    std::uint16_t n;
    std::memcpy(&n, data + at, 2);
    at += 2;
    n = std::uint16_t(std::min<std::size_t>(n, size - at));
    try {
      Message m = decode_message(data + at, n);
      m.kind = MsgKind::kPushPart;
      m.from = 0;
      m.to = 1;
      rx.on_message(m);
    } catch (const WireError&) {
    }
    at += n;
    world.run(world.now() + 20 * kNsPerSecond / 1000);
  }
  world.run();
  (void)rx.report(world.now());
  return 0;
}
