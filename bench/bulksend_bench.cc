// What geotrain's ns-3 runtime adds over bare ns-3: the same bytes over the
// same links, TCP settings and segment size, moved once by ns-3's own
// BulkSend application and once as geotrain messages through SimTransport,
// in the same run. Both build their hosts and links with SimNetwork from the
// quickstart topology (a 1 Gbps, 50 ms WAN here): a local server in dc-a
// sends to the global server in central, across LAN, WAN and LAN.
//   BM_BareBulkSend       ns-3's BulkSend -> PacketSink
//   BM_GeotrainTransport  geotrain Messages (40 x 12.5 MB) -> the receiver's deliver
// Counters: sim_MB_per_wall_s (simulated payload megabytes per wall second)
// and sim_s (when the last byte arrived). The README compares the two.
// Run: build/geotrain-bench --benchmark_filter='BulkSend|GeotrainTransport'
#include <benchmark/benchmark.h>
#include <ns3/applications-module.h>
#include <ns3/core-module.h>

#include <chrono>
#include <memory>

#include "core/config/scenario.h"
#include "core/topology/deployment.h"
#include "sim/sim_network.h"
#include "sim/sim_transport.h"

namespace geotrain {
namespace {

using Clock = std::chrono::steady_clock;

constexpr int kMessages = 40;
constexpr std::uint64_t kFloatsPerMessage = 3'125'000;  // 12.5 MB

Scenario bench_scenario() {
  return load_scenario(std::string(GEOTRAIN_SOURCE_DIR) + "/scenarios/quickstart.json",
                       {"topology.wan.default.bandwidth_mbps=1000"});
}

Message message(NodeId from, NodeId to) {
  auto p = std::make_shared<Payload>();
  p->blocks.push_back({0, Eigen::VectorXf::Zero(1), kFloatsPerMessage});
  return make_message(MsgKind::kPush, from, to, 0, std::move(p));
}

struct Endpoints {
  NodeId from, to;
};
Endpoints endpoints(const Deployment& d) {
  return {d.nodes[std::size_t(d.global_server)].children.at(0), d.global_server};
}

void report(benchmark::State& state, std::uint64_t bytes, double wall_s, double sim_s) {
  state.counters["sim_MB_per_wall_s"] = double(bytes) / 1e6 / wall_s;
  state.counters["sim_s"] = sim_s;
  state.counters["MB"] = double(bytes) / 1e6;
}

struct Received {
  std::uint64_t bytes = 0;
  double last_s = 0;
};
void on_rx(Received* r, ns3::Ptr<const ns3::Packet> p, const ns3::Address&) {
  r->bytes += p->GetSize();
  r->last_s = ns3::Simulator::Now().GetSeconds();
}

// Builds a fresh SimNetwork per iteration, lets `move` put the bytes across
// (it returns when the last one arrived, in simulated seconds, or sets an
// error), and reports the rate. Only `move` differs between the two.
template <class Move>
void run(benchmark::State& state, Move move) {
  const Scenario sc = bench_scenario();
  const Deployment dep = plan_deployment(sc);
  const Endpoints e = endpoints(dep);
  const std::uint64_t bytes = kMessages * message(e.from, e.to).wire_bytes;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    double done_s = 0;
    {
      sim::SimNetwork net(sc, dep);
      done_s = move(net, sc, e, bytes);
    }
    ns3::Simulator::Destroy();
    report(state, bytes, std::chrono::duration<double>(Clock::now() - t0).count(), done_s);
  }
}

void BM_BareBulkSend(benchmark::State& state) {
  run(state, [&state](sim::SimNetwork& net, const Scenario& sc, Endpoints e, std::uint64_t bytes) {
    ns3::PacketSinkHelper sink("ns3::TcpSocketFactory", ns3::InetSocketAddress(ns3::Ipv4Address::GetAny(), 5000));
    ns3::ApplicationContainer rx = sink.Install(net.host(e.to));
    ns3::BulkSendHelper send("ns3::TcpSocketFactory", ns3::InetSocketAddress(net.address(e.to), 5000));
    send.SetAttribute("MaxBytes", ns3::UintegerValue(bytes));
    send.SetAttribute("SendSize", ns3::UintegerValue(sc.network.segment_bytes));
    send.Install(net.host(e.from));
    Received got;
    ns3::DynamicCast<ns3::PacketSink>(rx.Get(0))->TraceConnectWithoutContext("Rx",
                                                                             ns3::MakeBoundCallback(&on_rx, &got));
    ns3::Simulator::Run();
    if (got.bytes != bytes) state.SkipWithError("the sink did not receive every byte");
    return got.last_s;
  });
}
BENCHMARK(BM_BareBulkSend)->Unit(benchmark::kMillisecond)->Iterations(3);

void BM_GeotrainTransport(benchmark::State& state) {
  run(state, [&state](sim::SimNetwork& net, const Scenario&, Endpoints e, std::uint64_t) {
    double done_s = 0;
    int delivered = 0;
    sim::SimTransport transport(net, [&](const Message&) {
      ++delivered;
      done_s = ns3::Simulator::Now().GetSeconds();
    });
    for (int i = 0; i < kMessages; ++i) transport.send(message(e.from, e.to));
    ns3::Simulator::Run();
    if (delivered != kMessages) state.SkipWithError("not every message arrived");
    return done_s;
  });
}
BENCHMARK(BM_GeotrainTransport)->Unit(benchmark::kMillisecond)->Iterations(3);

}  // namespace
}  // namespace geotrain
