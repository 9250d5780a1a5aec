// Every shipped codec scenario (scenarios/quickstart-<codec>.json) runs in
// the ns-3 runtime, twice with identical results, and in real mode (geotrain
// launch on loopback) from the same file: one codec implementation, encoded
// bytes on real sockets and charged bytes in simulation alike.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "core/codec/codec_registry.h"
#include "sim/sim_runner.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

using testing::fresh_dir;
using testing::read_json;
using testing::run_geotrain;
using testing::set_args;
using testing::small_sets;
using testing::source_path;
using testing::without_wall_time;

class CodecScenario : public ::testing::TestWithParam<const char*> {};

TEST_P(CodecScenario, RunsInBothRuntimesDeterministicallyAndCompressesAlike) {
  const std::string file = source_path(std::string("scenarios/quickstart-") + GetParam() + ".json");
  std::vector<std::string> sets = small_sets(10);
  sets.push_back("compression.dense_below=0");  // the small model's tensors are compressed too
  const Scenario sc = load_scenario(file, sets);
  const nlohmann::json sim = summary_json(sim::run_simulation(sc));
  EXPECT_EQ(without_wall_time(sim), without_wall_time(summary_json(sim::run_simulation(sc))));
  const std::string out = fresh_dir(std::string("codec-") + GetParam());
  const auto r = run_geotrain("launch " + file + " --out " + out + " -q --timeout 120" + set_args(sets));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json real = read_json(out + "/summary.json");
  std::filesystem::remove_all(out);
  EXPECT_EQ(real["rounds"], 10);
  EXPECT_EQ(real["worker_steps"], sim["worker_steps"]);
  ASSERT_FALSE(sim["compression"].empty());
  for (const auto& [stream, s] : sim["compression"].items()) {
    ASSERT_TRUE(real["compression"].contains(stream)) << stream;
    const auto& q = real["compression"][stream];
    EXPECT_EQ(q["codec"], s["codec"]) << stream;
    EXPECT_EQ(q["dense_bytes"], s["dense_bytes"]) << stream << ": the same payloads";
    const bool lan_fp32 = s["codec"] == "mpq" && stream.rfind("lan", 0) == 0;  // mpq: fp32 inside a DC
    if (s["codec"] != "none" && !lan_fp32) {
      EXPECT_GT(s["ratio"].get<double>(), 1.0) << stream;
    }
    // Bytes per payload as sent agree within 1% (value-dependent sizes, e.g.
    // a sparse count, may differ once real timing reorders a sum).
    const auto per_payload = [](const nlohmann::json& j) {
      return j["sent_bytes"].get<double>() / std::max(1.0, j["payloads"].get<double>());
    };
    EXPECT_NEAR(per_payload(q), per_payload(s), 0.01 * per_payload(s)) << stream;
  }
}

INSTANTIATE_TEST_SUITE_P(All, CodecScenario,
                         ::testing::Values("fp16", "mpq", "bsc", "dgc", "random_k", "qsgd", "terngrad", "signsgd_ef",
                                           "powersgd"));

// The timeline's per-stream bytes are what had been sent by each evaluation:
// under bsp, round r is applied before any push of round r + 1 is encoded, so
// the row of round r counts exactly r pushes per sender; every stream only
// grows; the last row, at the end of the run, counts everything in the summary.
TEST(CodecScenario, TimelineCountsEachStreamUpToItsEvaluation) {
  std::vector<std::string> sets = small_sets(6);
  sets.push_back("eval.every_rounds=1");
  sets.push_back("compression.dense_below=0");
  const Scenario sc = load_scenario(source_path("scenarios/quickstart-fp16.json"), sets);
  const RunResult r = sim::run_simulation(sc);
  ASSERT_EQ(r.timeline.size(), 6u);
  std::map<std::string, std::uint64_t> before;
  for (const TimelineRow& row : r.timeline)
    for (const auto& [name, total] : r.compression.items()) {
      const std::uint64_t n = row.streams.at(name).payloads;
      if (name.find("push") != std::string::npos) {
        const std::uint64_t per_round = total["payloads"].get<std::uint64_t>() / 6;  // every sender, once a round
        ASSERT_GT(per_round, 0u) << name;
        EXPECT_EQ(n, per_round * std::uint64_t(row.round)) << name << " round " << row.round;
      }
      EXPECT_GE(n, before[name]) << name << " round " << row.round;
      before[name] = n;
    }
  for (const TimelineRow& row : r.timeline) {
    // fp16 payloads of one model all cost the same: every row has the run's ratio
    const StreamBytes& w = row.streams.at("wan_push");
    EXPECT_DOUBLE_EQ(double(w.dense_bytes) / double(w.sent_bytes), r.compression["wan_push"]["ratio"].get<double>());
  }
  for (const auto& [name, total] : r.compression.items()) {
    const StreamBytes& last = r.timeline.back().streams.at(name);
    EXPECT_EQ(last.payloads, total["payloads"].get<std::uint64_t>()) << name;
    EXPECT_EQ(last.dense_bytes, total["dense_bytes"].get<std::uint64_t>()) << name;
    EXPECT_EQ(last.sent_bytes, total["sent_bytes"].get<std::uint64_t>()) << name;
  }
}

TEST(CodecScenario, EverySelectableCodecHasAShippedScenario) {
  for (const auto& c : codec_registry())
    if (c.doc.name != "none" && c.doc.name != "sparse") {
      EXPECT_TRUE(std::filesystem::exists(source_path("scenarios/quickstart-" + c.doc.name + ".json"))) << c.doc.name;
    }
}

}  // namespace
}  // namespace geotrain
