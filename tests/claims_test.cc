// geotrain claims: rows run once per seed, each check's interval decides its
// verdict, the report is redrawn by `geotrain report`, and a bad claims file
// is refused with its JSON path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tests/real_test_util.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

using namespace testing;
namespace fs = std::filesystem;

std::string read(const std::string& path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// Two rows of the quickstart made small: flat and HiPS, 5 rounds each.
std::string claims_file(const std::string& dir, const std::string& checks) {
  const std::string sets =
      R"(["stop.rounds=5", "model={\"kind\":\"softmax\"}", "dataset={\"kind\":\"synthetic\",\"train\":2000,\"test\":400}"])";
  const std::string path = dir + "/claims.in.json";
  std::ofstream(path) << R"({"name": "t", "seeds": [1, 2],
    "rows": {"flat": {"scenario": ")"
                      << source_path("scenarios/quickstart-flat.json") << R"(", "sets": )" << sets << R"(},
             "hips": {"scenario": ")"
                      << source_path("scenarios/quickstart.json") << R"(", "sets": )" << sets << R"(}},
    "claims": [{"id": "hips", "claim": "HiPS cuts WAN bytes by the workers per DC.", "checks": [)"
                      << checks << "]}]}";
  return path;
}

// With 2 workers a DC, flat sends 2x HiPS's WAN bytes every round on every seed: a ratio bounded
// by 1.5-2.5 is reproduced; one that asks for 100x holds in direction only; HiPS costing more
// than flat is not reproduced. Accuracies at equal samples come from the timelines' sample counts
// (both rows train the same samples in 5 rounds of bsp). The report redraws from the runs, without running them again.
TEST(Claims, EachCheckIsJudgedByItsIntervalOverSeeds) {
  const std::string d = fresh_dir("claims");
  fs::create_directories(d);
  const std::string f = claims_file(
      d,
      R"({"what": "flat / hips", "ratio": ["flat", "hips"], "field": "wan_bytes_per_round", "at_least": 1.5, "at_most": 2.5},
            {"what": "hundredfold", "ratio": ["flat", "hips"], "field": "wan_bytes_per_round", "at_least": 100},
            {"what": "hips costs more", "ratio": ["hips", "flat"], "field": "wan_bytes_per_round", "at_least": 1.1},
            {"what": "same samples", "difference": ["hips", "flat"], "field": "test_accuracy", "at_equal_samples": true,
             "at_least": -0.5})");
  auto r = run_geotrain("claims " + f + " --out " + d + "/out -j 2");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("4 run(s) to do"), std::string::npos) << r.output;
  const std::string md = read(d + "/out/claims.md");
  EXPECT_NE(md.find("2 of 4 checks reproduced"), std::string::npos) << md;
  EXPECT_NE(md.find("| same samples |  | >= -0.5 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| flat / hips |  | 1.5 to 2.5 | 2.00 +- 0.00 | 2/2 | reproduced |"), std::string::npos) << md;
  EXPECT_NE(md.find("| hundredfold |  | >= 100 | 2.00 +- 0.00 | 2/2 | direction only |"), std::string::npos) << md;
  EXPECT_NE(md.find("| hips costs more |  | >= 1.1 | 0.500 +- 0.000 | 2/2 | not reproduced |"), std::string::npos)
      << md;
  EXPECT_TRUE(fs::exists(d + "/out/claims/hips.png"));
  EXPECT_NE(read(d + "/out/claims.html").find("data:image/png;base64,"), std::string::npos);

  // Rerun: every run is kept. Report: redrawn from the same runs.
  r = run_geotrain("claims " + f + " --out " + d + "/out -j 2");
  EXPECT_NE(r.output.find("0 run(s) to do (2 rows x 2 seeds, 4 kept from before)"), std::string::npos) << r.output;
  fs::remove(d + "/out/claims.md");
  r = run_geotrain("report " + d + "/out");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read(d + "/out/claims.md"), md);
  fs::remove_all(d);
}

// A row whose overrides the loader refuses stops the command before any run, naming the row.
TEST(Claims, ARowTheLoaderRefusesIsNamedBeforeAnyRun) {
  const std::string d = fresh_dir("claims-badrow");
  fs::create_directories(d);
  std::ofstream(d + "/c.json") << R"({"name": "t", "rows": {"r": {"scenario": ")"
                               << source_path("scenarios/quickstart.json") << R"(", "sets": ["batch_size=-3"]}},
    "claims": [{"id": "c", "claim": "x", "checks": [{"what": "x", "value": "r", "field": "rounds", "at_least": 1}]}]})";
  const auto r = run_geotrain("claims " + d + "/c.json --out " + d + "/out");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/rows/r: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("/batch_size"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d + "/out/runs"));
  fs::remove_all(d);
}

TEST(Claims, ACheckNamingAnUnknownRowIsRefusedWithItsPath) {
  const std::string d = fresh_dir("claims-bad");
  fs::create_directories(d);
  const std::string f =
      claims_file(d, R"({"what": "x", "ratio": ["flat", "hipz"], "field": "wan_bytes", "at_least": 1})");
  const auto r = run_geotrain("claims " + f + " --out " + d + "/out");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/claims/0/checks/0/ratio: no row named 'hipz' in /rows"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d + "/out/runs"));
  fs::remove_all(d);
}

}  // namespace
}  // namespace geotrain
