// geotrain regress: passes on the committed expectations, and catches a changed default.
#include "cli/regress.h"

#include <gtest/gtest.h>

#include "tests/test_util.h"

namespace geotrain {
namespace {

TEST(Regress, CatchesADeliberatelyChangedDefaultWithAReadableDiff) {
  // As if the default segment size had been changed from 64000 to 1448 bytes.
  const auto r = testing::run_geotrain("regress --set network.segment_bytes=1448");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("FAIL hips-synthetic.json"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("! events"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("expected"), std::string::npos) << r.output;
}

TEST(Regress, ToleranceAppliesToAccuraciesAndCountersAreExact) {
  const nlohmann::json expected = {{"final_test_accuracy", {{"expected", 0.80}, {"tolerance", 0.02}}},
                                   {"events", {{"expected", 100}, {"tolerance", 0}}},
                                   {"bytes.wan", {{"expected", 5000}, {"tolerance", 0}}},
                                   {"time_to_target_s", {{"expected", nullptr}, {"tolerance", 0.1}}}};
  nlohmann::json summary = {
      {"final_test_accuracy", 0.81}, {"events", 100}, {"bytes", {{"wan", 5000}}}, {"time_to_target_s", nullptr}};
  for (const auto& c : cli::compare_summary(expected, summary)) EXPECT_TRUE(c.ok) << c.metric;
  summary["events"] = 101;
  summary["final_test_accuracy"] = 0.77;
  summary["time_to_target_s"] = 12.5;
  int failed = 0;
  for (const auto& c : cli::compare_summary(expected, summary)) failed += !c.ok;
  EXPECT_EQ(failed, 3);
}

}  // namespace
}  // namespace geotrain
