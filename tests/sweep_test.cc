// geotrain sweep: resumable after an interruption, shards merge to the unsharded result.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "core/sweep/sweep_plan.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

namespace fs = std::filesystem;
using testing::run_geotrain;
using testing::source_path;

// An 8-point sweep of short synthetic runs: 2 architectures x 2 zipped rows x 2 seeds.
std::string write_sweep(const std::string& dir, int rounds) {
  fs::create_directories(dir);
  nlohmann::json s;
  s["name"] = "tiny";
  s["base"] = source_path("scenarios/quickstart.json");
  s["sets"] = {R"(model={"kind":"mlp","hidden":[32]})", R"(dataset={"kind":"synthetic","features":64})",
               "stop.rounds=" + std::to_string(rounds), "eval.every_rounds=50"};
  s["grid"] = {{"architecture", {"hips", "flat"}}};
  s["zip"] = {{"batch_size", {16, 64}}, {"optimizer.lr", {0.05, 0.02}}};
  s["seeds"] = {1, 2};
  const std::string path = dir + "/sweep.json";
  std::ofstream(path) << s.dump(1);
  return path;
}

std::vector<std::string> lines_without_wall_time(const std::string& csv) {
  std::ifstream in(csv);
  std::vector<std::string> out;
  int wall_col = -1;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    if (wall_col < 0)
      for (std::size_t i = 0; i < cells.size(); ++i)
        if (cells[i] == "wall_time_s") wall_col = int(i);
    if (wall_col >= 0 && wall_col < int(cells.size())) cells.erase(cells.begin() + wall_col);
    std::string joined;
    for (const auto& c : cells) joined += c + ",";
    out.push_back(joined);
  }
  return out;
}

TEST(Sweep, PlanExpandsGridTimesZipTimesSeedsInAFixedOrder) {
  const std::string dir = "/tmp/geotrain-test-sweep-plan-" + std::to_string(::getpid());
  const SweepPlan plan = load_sweep(write_sweep(dir, 10));
  ASSERT_EQ(plan.points.size(), 8u);  // 2 architectures x 2 zipped rows x 2 seeds
  EXPECT_EQ(plan.points[0].values[0].second, "hips");
  EXPECT_EQ(plan.points[0].seed, 1u);
  EXPECT_EQ(plan.points[1].seed, 2u);
  EXPECT_EQ(plan.points[2].values[1].second, 64);  // zip row 2: batch 64 with lr 0.02
  EXPECT_EQ(plan.points[2].values[2].second, 0.02);
  EXPECT_EQ(plan.points[4].values[0].second, "flat");
  fs::remove_all(dir);
}

TEST(Sweep, InterruptedSweepResumesAndRunsEveryPointExactlyOnce) {
  const std::string dir = "/tmp/geotrain-test-sweep-resume-" + std::to_string(::getpid());
  fs::remove_all(dir);
  const std::string sweep = write_sweep(dir, 1500);
  const std::string out = dir + "/out";
  // Start, wait until two points have finished, interrupt.
  const std::string bin = testing::geotrain_bin();
  const pid_t pid = fork();
  if (pid == 0) {
    execl(bin.c_str(), bin.c_str(), "sweep", sweep.c_str(), "--out", out.c_str(), "-j", "2", "-q", nullptr);
    _exit(127);
  }
  auto finished = [&] {
    int n = 0;
    if (fs::exists(out + "/runs"))
      for (const auto& d : fs::directory_iterator(out + "/runs")) n += fs::exists(d.path() / "summary.json");
    return n;
  };
  for (int i = 0; i < 600 && finished() < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(pid, SIGTERM);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_NE(WEXITSTATUS(status), 0) << "an interrupted sweep must not report success";
  std::map<std::string, fs::file_time_type> before;
  for (const auto& d : fs::directory_iterator(out + "/runs"))
    if (fs::exists(d.path() / "summary.json"))
      before[d.path().filename()] = fs::last_write_time(d.path() / "summary.json");
  ASSERT_GE(before.size(), 2u);
  ASSERT_LT(before.size(), 8u) << "interrupted too late to test resuming";
  const auto r = run_geotrain("sweep " + sweep + " --out " + out + " -j 2 -q");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find(std::to_string(before.size()) + " already finished"), std::string::npos) << r.output;
  for (const auto& [id, t] : before)  // finished points were not run again
    EXPECT_EQ(fs::last_write_time(out + "/runs/" + id + "/summary.json"), t) << id;
  const auto rows = lines_without_wall_time(out + "/results.csv");
  ASSERT_EQ(rows.size(), 9u);  // header + 8 points, each once
  for (int i = 0; i < 8; ++i) EXPECT_EQ(rows[i + 1].substr(0, 6), "p000" + std::to_string(i) + ",");
  fs::remove_all(dir);
}

TEST(Sweep, TwoShardsMergedGiveTheUnshardedResults) {
  const std::string dir = "/tmp/geotrain-test-sweep-shards-" + std::to_string(::getpid());
  fs::remove_all(dir);
  const std::string sweep = write_sweep(dir, 30);
  for (const char* shard : {"0/2", "1/2"}) {
    const auto r = run_geotrain("sweep " + sweep + " --out " + dir + "/sharded -q --shard " + shard);
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  const auto whole = run_geotrain("sweep " + sweep + " --out " + dir + "/whole -q -j 2");
  ASSERT_EQ(whole.exit_code, 0) << whole.output;
  const auto a = lines_without_wall_time(dir + "/sharded/results.csv");
  EXPECT_EQ(a.size(), 9u);
  EXPECT_EQ(a, lines_without_wall_time(dir + "/whole/results.csv"));
  fs::remove_all(dir);
}

TEST(Sweep, PointsRunAtOnceMustFitInMemoryTogether) {
  const std::string dir = "/tmp/geotrain-test-sweep-memory-" + std::to_string(::getpid());
  fs::remove_all(dir);
  const std::string sweep = write_sweep(dir, 20);
  // Each point needs about 41 MB: under a 60 MB limit -j 2 runs them one at a time, and says so.
  setenv("GEOTRAIN_MEMORY_LIMIT_MB", "60", 1);
  const auto tight = run_geotrain("sweep " + sweep + " --out " + dir + "/tight -q -j 2");
  setenv("GEOTRAIN_MEMORY_LIMIT_MB", "1000", 1);
  const auto roomy = run_geotrain("sweep " + sweep + " --out " + dir + "/roomy -q -j 2");
  unsetenv("GEOTRAIN_MEMORY_LIMIT_MB");
  ASSERT_EQ(tight.exit_code, 0) << tight.output;
  EXPECT_NE(tight.output.find("fewer than -j 2 points run at once"), std::string::npos) << tight.output;
  EXPECT_NE(tight.output.find("the limit is 60 MB"), std::string::npos) << tight.output;
  EXPECT_EQ(lines_without_wall_time(dir + "/tight/results.csv").size(), 9u);
  ASSERT_EQ(roomy.exit_code, 0) << roomy.output;
  EXPECT_EQ(roomy.output.find("run at once"), std::string::npos) << roomy.output;
  EXPECT_EQ(lines_without_wall_time(dir + "/tight/results.csv"), lines_without_wall_time(dir + "/roomy/results.csv"));
  fs::remove_all(dir);
}

TEST(Sweep, AnInvalidPointIsRejectedBeforeAnythingRuns) {
  const std::string dir = "/tmp/geotrain-test-sweep-bad-" + std::to_string(::getpid());
  fs::create_directories(dir);
  std::ofstream(dir + "/s.json") << R"({"name":"bad","base":")" + source_path("scenarios/quickstart.json") +
                                        R"(","grid":{"batch_size":[32,-1]}})";
  const auto r = run_geotrain("sweep " + dir + "/s.json --out " + dir + "/out -q");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("point p0001"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("/batch_size"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir + "/out/runs"));
  fs::remove_all(dir);
}

// The seed as a grid axis: results.csv has one seed column, which holds it.
TEST(Sweep, ASweptSeedIsOneColumnOfTheResults) {
  const std::string dir = "/tmp/geotrain-test-sweep-seed-" + std::to_string(::getpid());
  fs::create_directories(dir);
  std::ofstream(dir + "/s.json")
      << R"({"name":"seeds","base":")" + source_path("scenarios/quickstart.json") +
             R"(","sets":["stop.rounds=2","dataset={\"kind\":\"synthetic\",\"features\":16}"],)"
             R"("grid":{"seed":[3,4]}})";
  const auto r = run_geotrain("sweep " + dir + "/s.json --out " + dir + "/out -q");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(dir + "/out/results.csv");
  std::string header, row;
  std::getline(in, header);
  std::getline(in, row);
  std::vector<std::string> cols;
  std::stringstream ss(header);
  for (std::string c; std::getline(ss, c, ',');) cols.push_back(c);
  EXPECT_EQ(std::count(cols.begin(), cols.end(), "seed"), 1) << header;
  EXPECT_EQ(row.substr(0, row.find(',', row.find(',') + 1)), "p0000,3") << row;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

TEST(Report, WritesPlotsAndASelfContainedPageForASweep) {
  const std::string dir = "/tmp/geotrain-test-report-" + std::to_string(::getpid());
  fs::remove_all(dir);
  const std::string sweep = write_sweep(dir, 30);
  ASSERT_EQ(run_geotrain("sweep " + sweep + " --out " + dir + "/out -q -j 2").exit_code, 0);
  const auto r = run_geotrain("report " + dir + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* png : {"accuracy_vs_time.png", "time_to_target.png", "bytes.png", "dc_fractions.png"}) {
    std::ifstream f(dir + "/out/report/" + png, std::ios::binary);
    char magic[8] = {};
    f.read(magic, 8);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG") << png;
  }
  std::ifstream page(dir + "/out/report/index.html");
  const std::string html((std::istreambuf_iterator<char>(page)), {});
  EXPECT_NE(html.find("data:image/png;base64,"), std::string::npos);  // plots embedded
  EXPECT_NE(html.find("p0007"), std::string::npos);                   // every point in the table
  EXPECT_EQ(html.find("src='report/"), std::string::npos);            // no external files
  fs::remove_all(dir);
}

// Runs over several topologies: a heat map of time to target (policy x
// topology) and its matrix as CSV, one row per architecture/policy.
TEST(Report, DrawsTheTimeToTargetHeatMapAcrossTopologies) {
  const std::string dir = "/tmp/geotrain-test-heatmap-" + std::to_string(::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  nlohmann::json s;
  s["name"] = "heat";
  s["base"] = source_path("scenarios/quickstart.json");
  s["sets"] = {R"(model={"kind":"mlp","hidden":[16]})",
               R"(dataset={"kind":"synthetic","features":32,"classes":4,"train":2000,"test":400})", "stop.rounds=30",
               "eval.every_rounds=5", "stop.target_accuracy=0.5"};
  s["grid"] = {{"topology", {"../topologies/quickstart.json", "../topologies/2dc.json"}}};
  s["zip"] = {{"policy", {{{"kind", "bsp"}}, {{"kind", "local_sgd"}, {"h", 2}}}}};
  std::ofstream(dir + "/sweep.json") << s.dump(1);
  ASSERT_EQ(run_geotrain("sweep " + dir + "/sweep.json --out " + dir + "/out -q -j 2").exit_code, 0);
  const auto r = run_geotrain("report " + dir + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream png(dir + "/out/report/time_to_target_heatmap.png", std::ios::binary);
  char magic[8] = {};
  png.read(magic, 8);
  EXPECT_EQ(std::string(magic + 1, 3), "PNG");
  std::ifstream csv(dir + "/out/report/time_to_target_matrix.csv");
  std::vector<std::string> lines;
  for (std::string line; std::getline(csv, line);) lines.push_back(line);
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "policy,quickstart,2dc") << "columns in the sweep's order";
  EXPECT_EQ(lines[1].rfind("hips/bsp,", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("hips/local_sgd,", 0), 0u) << lines[2];
  fs::remove_all(dir);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// A sweep and its report on a learner that is not a classifier: results.csv carries every metric, final and
// best; time to target follows stop.target's metric (RMSE, lower is better); the report plots each metric.
TEST(Report, SweepsAndPlotsAnyLearnersMetrics) {
  const std::string dir = "/tmp/geotrain-test-metrics-sweep-" + std::to_string(::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  nlohmann::json s;
  s["name"] = "mf";
  s["base"] = source_path("scenarios/algo-mf.json");
  s["sets"] = {R"(dataset={"kind":"ratings","users":40,"items":40,"train":3000,"test":300})",
               R"(stop={"rounds":60,"target":{"metric":"test_rmse","value":0.5}})", "eval.every_rounds=10"};
  s["grid"] = {{"policy", {{{"kind", "bsp"}}, {{"kind", "local_sgd"}, {"h", 2}}}}};
  std::ofstream(dir + "/sweep.json") << s.dump(1);
  ASSERT_EQ(run_geotrain("sweep " + dir + "/sweep.json --out " + dir + "/out -q -j 2").exit_code, 0);
  std::ifstream csv(dir + "/out/results.csv");
  std::string header, row;
  std::getline(csv, header);
  std::getline(csv, row);
  EXPECT_NE(header.find(",test_rmse_final,test_rmse_best,test_mae_final,test_mae_best"), std::string::npos) << header;
  const auto summary = load_json_file(dir + "/out/runs/p0000/summary.json");
  EXPECT_EQ(summary["target"]["metric"], "test_rmse");
  EXPECT_FALSE(summary["time_to_target_s"].is_null()) << "RMSE falls below 0.5 within 60 rounds";
  const auto r = run_geotrain("report " + dir + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  for (const char* png : {"test_rmse_vs_time.png", "test_mae_vs_time.png", "test_rmse_vs_wan_bytes.png"})
    EXPECT_TRUE(fs::exists(dir + "/out/report/" + png)) << png;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace geotrain
