// Simulator cost on the quickstart topology.
//   BM_SimRound        wall time per simulated round (model maths included), and
//                      simulator events per round, for growing model sizes
//   BM_SimMegabyte     wall time per simulated WAN megabyte (compute negligible)
//   BM_QuickstartFull  the whole quickstart scenario (Fashion-MNIST, 800 rounds):
//                      the README's "under 60 s on 2 cores" figure
// Run: build/geotrain-bench   (or --benchmark_filter=Quickstart)
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "core/config/scenario.h"
#include "sim/sim_runner.h"

namespace geotrain {
namespace {

std::string scenario_path(const char* name) { return std::string(GEOTRAIN_SOURCE_DIR) + "/scenarios/" + name; }

Scenario synthetic_quickstart(int hidden, int rounds, double gflops) {
  return load_scenario(scenario_path("quickstart.json"),
                       {"model={\"kind\":\"mlp\",\"hidden\":[" + std::to_string(hidden) + "]}",
                        R"(dataset={"kind":"synthetic","features":784,"classes":10,"train":4000,"test":500})",
                        "stop.rounds=" + std::to_string(rounds), "eval.every_rounds=1000000",
                        "topology.dcs.1.worker_gflops=" + std::to_string(gflops),
                        "topology.dcs.2.worker_gflops=" + std::to_string(gflops)});
}

void BM_SimRound(benchmark::State& state) {
  const int hidden = int(state.range(0));
  const Scenario sc = synthetic_quickstart(hidden, 50, 5);
  RunResult r;
  for (auto _ : state) r = sim::run_simulation(sc);
  state.counters["wall_ms_per_round"] = 1e3 * r.wall_time_s / double(r.rounds);
  state.counters["events_per_round"] = double(r.events) / double(r.rounds);
  state.counters["sim_s_per_round"] = r.sim_time_s / double(r.rounds);
  state.counters["model_MB"] = double(r.bytes.wan_bytes) / r.rounds / 4 / 1e6;  // 4 WAN transfers per round
}
BENCHMARK(BM_SimRound)->Arg(16)->Arg(128)->Arg(1024)->Unit(benchmark::kMillisecond);

void BM_SimMegabyte(benchmark::State& state) {
  // 2048 hidden units: 1.6 M parameters, 6.5 MB per tensor transfer; compute ~0.
  const Scenario sc = synthetic_quickstart(2048, 10, 1e6);
  RunResult r;
  for (auto _ : state) r = sim::run_simulation(sc);
  const double mb = double(r.bytes.wan_bytes + r.bytes.lan_bytes) / 1e6;
  state.counters["wall_ms_per_sim_MB"] = 1e3 * r.wall_time_s / mb;
  state.counters["sim_MB"] = mb;
}
BENCHMARK(BM_SimMegabyte)->Unit(benchmark::kMillisecond);

void BM_QuickstartFull(benchmark::State& state) {
  const Scenario sc = load_scenario(scenario_path("quickstart.json"));
  RunResult r;
  for (auto _ : state) r = sim::run_simulation(sc);
  state.counters["final_test_accuracy"] = r.timeline.back().metrics.at(0);
  state.counters["sim_time_s"] = r.sim_time_s;
  state.counters["rounds"] = double(r.rounds);
  state.counters["wall_s"] = r.wall_time_s;
}
BENCHMARK(BM_QuickstartFull)->Iterations(1)->Unit(benchmark::kSecond);

}  // namespace
}  // namespace geotrain
