// Bad inputs: each a one-line error naming the file and JSON path, exit 2, no crash.
#include <gtest/gtest.h>

#include "core/config/scenario.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::run_geotrain;
using testing::source_path;

struct BadCase {
  const char* file;
  const char* expect;  // substring of the error line
};

class BadInput : public ::testing::TestWithParam<BadCase> {};

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

TEST_P(BadInput, ValidateAndSimExitTwoWithOneLineNamingThePath) {
  const std::string f = source_path(std::string("tests/data/bad/") + GetParam().file);
  for (const std::string& cmd : {"validate " + f, "sim " + f + " --out /tmp/geotrain-bad-input -q"}) {
    const auto r = run_geotrain(cmd);
    EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.output;
    EXPECT_EQ(lines(r.output), 1) << r.output;
    EXPECT_EQ(r.output.rfind("error: ", 0), 0u) << r.output;
    EXPECT_NE(r.output.find(GetParam().file), std::string::npos) << r.output;
    EXPECT_NE(r.output.find(GetParam().expect), std::string::npos) << r.output;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, BadInput,
    ::testing::Values(BadCase{"malformed.json", "malformed JSON at line 4"},
                      BadCase{"unknown_key.json", "/network/segment_size: unknown key \"segment_size\""},
                      BadCase{"unknown_model.json", "/model/kind: unknown value \"resnet50\""},
                      BadCase{"missing_topology.json", "/topology: cannot load topology"},
                      BadCase{"negative_bandwidth.json",
                              "/topology/wan/default/bandwidth_mbps: expected a number in [0.01, 100000]"},
                      BadCase{"bad_batch.json", "/batch_size: expected an integer in [1, 1048576], got 0"}),
    [](const auto& info) {
      std::string n = info.param.file;
      return n.substr(0, n.find('.'));
    });

TEST(Config, ShippedScenariosValidate) {
  const auto r =
      run_geotrain("validate " + source_path("scenarios/quickstart.json") + " " +
                   source_path("scenarios/quickstart-flat.json") + " " + source_path("topologies/quickstart.json"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(Config, SetOverridesAndIsValidated) {
  const Scenario s = load_scenario(source_path("scenarios/quickstart.json"), {"network.segment_bytes=9000"});
  EXPECT_EQ(s.network.segment_bytes, 9000);
  try {
    load_scenario(source_path("scenarios/quickstart.json"), {"network.segment_bytes=-5"});
    FAIL() << "negative segment accepted";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("/network/segment_bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(load_scenario(source_path("scenarios/quickstart.json"), {"no-equals-sign"}), ConfigError);
}

TEST(Config, DgtSettingsAreCheckedWhereTheyAreWritten) {
  const std::string f = source_path("scenarios/lossywan-dgt.json");
  const Scenario low = load_scenario(source_path("scenarios/quickstart.json"), {"dgt.mode=1", "dgt.k=0.1"});
  EXPECT_EQ(low.dgt.k_min, 0.1) << "an unset k_min follows a k below its default";
  for (const auto& [set, path] :
       std::vector<std::pair<std::string, std::string>>{{"dgt.k_min=0.6", "/dgt/k_min"},
                                                        {"dgt.mode=4", "/dgt/mode"},
                                                        {"dgt.block_bytes=4095", "/dgt/block_bytes"},
                                                        {"dgt.channels=8", "/dgt/channels"},
                                                        {"dgt.speed=2", "/dgt/speed"}}) {
    try {
      load_scenario(f, {set});
      ADD_FAILURE() << set << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
}

TEST(Config, ResolvedScenarioCarriesDefaultsAndInlinesTopology) {
  const Scenario s = load_scenario(source_path("scenarios/quickstart.json"));
  EXPECT_EQ(s.resolved["network"]["min_rto_ms"], 200.0);
  EXPECT_EQ(s.resolved["partition"]["level"], "worker");
  EXPECT_EQ(s.resolved["topology"]["dcs"].size(), 3u);
}

TEST(Config, UnknownKeyListsTheValidOnes) {
  try {
    load_scenario(source_path("scenarios/quickstart.json"), {"optimizer.learning_rate=0.1"});
    FAIL();
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("valid here:"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("lr"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace geotrain
