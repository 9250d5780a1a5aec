// Codec speed on one 25.6M-float tensor (ResNet-50's parameter count):
// BM_<codec>_encode reports bytes_per_second of dense input encoded (with the
// codec's per-key state, as a worker's stream keeps it), BM_<codec>_decode
// bytes_per_second of dense output added into a tensor, and BM_memcpy copies
// the same tensor in the same run for scale. One core.
#include <benchmark/benchmark.h>

#include <cstring>
#include <random>

#include "core/codec/codec_registry.h"

namespace geotrain {
namespace {

constexpr Eigen::Index kFloats = 25'600'000;

const Eigen::VectorXf& gradient() {
  static const Eigen::VectorXf g = [] {
    Eigen::VectorXf v(kFloats);
    std::mt19937 rng(1);
    std::normal_distribution<float> d(0.0f, 0.01f);
    for (Eigen::Index i = 0; i < kFloats; ++i) v[i] = d(rng);
    return v;
  }();
  return g;
}

// dgc past its warm-up (one encode per warm-up epoch here), as it runs for most of a job.
std::unique_ptr<Encoder> make(const std::string& name) {
  const CodecInfo* c = find_codec(name);
  NumericParams p;
  for (const auto& s : c->params) p[s.name] = s.default_value;
  if (p.count("epoch_encodes")) p["epoch_encodes"] = 1;
  auto enc = c->make(p, {Tier::kWan, 1, 0});
  for (int i = 0; i < 5; ++i) enc->encode(0, gradient());  // state allocated and warmed up
  return enc;
}

void BM_memcpy(benchmark::State& state) {
  const Eigen::VectorXf& g = gradient();
  // Touched first: the timed copies write pages already mapped, as the codecs'
  // state is (a first write to fresh pages costs ten copies' time on a VM).
  Eigen::VectorXf out = Eigen::VectorXf::Zero(kFloats);
  for (auto _ : state) {
    std::memcpy(out.data(), g.data(), sizeof(float) * std::size_t(kFloats));
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kFloats * 4);
}
BENCHMARK(BM_memcpy)->Unit(benchmark::kMillisecond)->MinTime(1.0);

void encode(benchmark::State& state, const std::string& name) {
  const Eigen::VectorXf& g = gradient();
  auto enc = make(name);
  std::size_t bytes = 0;
  for (auto _ : state) {
    auto b = enc->encode(0, g);
    bytes = b ? b->bytes.size() : 0;
    benchmark::DoNotOptimize(b);
  }
  state.SetBytesProcessed(state.iterations() * kFloats * 4);
  state.counters["encoded_MB"] = double(bytes) / 1e6;
}

void decode(benchmark::State& state, const std::string& name) {
  const CodedBlock b = *make(name)->encode(0, gradient());
  validate_block(b);
  Eigen::VectorXf into = Eigen::VectorXf::Zero(kFloats);
  for (auto _ : state) {
    add_decoded(b, 1.0f, into);
    benchmark::DoNotOptimize(into.data());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kFloats * 4);
}

// The same with the receiver's validation, which real mode runs on every block from outside.
void validate(benchmark::State& state, const std::string& name) {
  const CodedBlock b = *make(name)->encode(0, gradient());
  for (auto _ : state) validate_block(b);
  state.SetBytesProcessed(state.iterations() * kFloats * 4);
}

#define CODEC_BENCH(name)                                                     \
  void BM_##name##_encode(benchmark::State& s) { encode(s, #name); }          \
  void BM_##name##_decode(benchmark::State& s) { decode(s, #name); }          \
  void BM_##name##_validate(benchmark::State& s) { validate(s, #name); }      \
  BENCHMARK(BM_##name##_encode)->Unit(benchmark::kMillisecond)->MinTime(1.0); \
  BENCHMARK(BM_##name##_decode)->Unit(benchmark::kMillisecond)->MinTime(1.0); \
  BENCHMARK(BM_##name##_validate)->Unit(benchmark::kMillisecond)->MinTime(1.0)

CODEC_BENCH(fp16);
CODEC_BENCH(mpq);
CODEC_BENCH(bsc);
CODEC_BENCH(dgc);
CODEC_BENCH(random_k);
CODEC_BENCH(qsgd);
CODEC_BENCH(terngrad);
CODEC_BENCH(signsgd_ef);
CODEC_BENCH(powersgd);

}  // namespace
}  // namespace geotrain
