// One training step of the learners, on one core: what a worker's compute()
// runs per step.
//   BM_CnnStep   the Fashion-MNIST CNN (16 and 32 channels, 128 dense), batch 64:
//                compared with the same network in PyTorch by bench/cnn_vs_torch.py
//   BM_RnnStep   the row-by-row LSTM (128 units), batch 32
// Run: build/geotrain-bench --benchmark_filter=Step
#include <benchmark/benchmark.h>

#include <random>

#include "core/learners/gd/cnn.h"
#include "core/learners/gd/rnn.h"

namespace geotrain {
namespace {

Dataset images(int n) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<float> u(0, 1);
  Dataset d;
  d.x.resize(784, n);
  for (Eigen::Index i = 0; i < d.x.size(); ++i) d.x.data()[i] = u(rng);
  for (int i = 0; i < n; ++i) d.y.push_back(i % 10);
  d.classes = 10;
  return d;
}

template <class L>
void step(benchmark::State& state, const L& learner, int batch) {
  const Dataset d = images(batch);
  std::vector<int> idx(static_cast<std::size_t>(batch));
  for (int i = 0; i < batch; ++i) idx[std::size_t(i)] = i;
  const ParamSet p = learner.init(1);
  std::mt19937_64 rng(1);
  ParamSet g;
  for (auto _ : state) benchmark::DoNotOptimize(learner.local_update(p, d, idx, rng, &g));
  state.counters["samples_per_s"] =
      benchmark::Counter(double(batch) * double(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_CnnStep(benchmark::State& state) { step(state, Cnn(784, 10, 16, 32, 128), 64); }
BENCHMARK(BM_CnnStep)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_RnnStep(benchmark::State& state) { step(state, Rnn(784, 28, 128, 10), 32); }
BENCHMARK(BM_RnnStep)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace geotrain
