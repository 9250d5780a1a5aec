// Hostile and careless input, each case from the hardening report (issue 8):
// every one gives a clear one-line error and the right exit status, or the
// right result; nothing crashes, hangs, reads forever or succeeds silently.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "core/json/json_reader.h"
#include "real/port_picker.h"
#include "real/process.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

using namespace testing;
namespace fs = std::filesystem;

const std::string kQuick = source_path("scenarios/quickstart.json");
// The quickstart made small and fast (synthetic data, small model).
const std::string kSmall = set_args(small_sets(20));

std::string scratch(const std::string& name) {
  const std::string d = fresh_dir("hard-" + name);
  fs::create_directories(d);
  return d;
}

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

struct Case {
  const char* name;
  std::string args;  // geotrain arguments
  int exit_code;
  const char* expect;  // substring of the output
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

class Rejects : public ::testing::TestWithParam<Case> {};

TEST_P(Rejects, WithOneClearLineAndTheRightExitCode) {
  const auto r = run_geotrain(GetParam().args);
  EXPECT_EQ(r.exit_code, GetParam().exit_code) << r.output;
  EXPECT_NE(r.output.find(GetParam().expect), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("error: "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("Segmentation"), std::string::npos) << r.output;
}

const std::string kOut = " --out /tmp/geotrain-hard-out -q";

INSTANTIATE_TEST_SUITE_P(
    Group2LaunchOptions, Rejects,
    ::testing::Values(
        Case{"kill_node_out_of_range", "launch " + kQuick + kOut + " --kill-node 99", 2, "no such node"},
        Case{"negative_kill_after", "launch " + kQuick + kOut + " --kill-node 2 --kill-after -1", 2, "--kill-after"},
        Case{"negative_timeout", "launch " + kQuick + kOut + " --timeout -5", 2, "--timeout"},
        Case{"zero_failure_timeout", "launch " + kQuick + kOut + " --failure-timeout 0", 2, "--failure-timeout"},
        Case{"fault_unknown_action", "launch " + kQuick + kOut + " --fault smash:1@2", 2, "unknown action"},
        Case{"fault_unknown_node", "launch " + kQuick + kOut + " --fault kill:dc-z/worker9@2", 2, "no such node"},
        Case{"fault_unknown_moment", "launch " + kQuick + kOut + " --fault kill:1@soon", 2, "unknown moment"},
        Case{"fault_checkpoint_without_checkpoints", "launch " + kQuick + kOut + " --fault kill:0@checkpoint", 2,
             "needs --checkpoint-every"}),
    [](const auto& i) { return std::string(i.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Group6ValuesNs3CannotTake, Rejects,
    ::testing::Values(
        Case{"bandwidth_1e308", "sim " + kQuick + kOut + " --set topology.wan.default.bandwidth_mbps=1e308", 2,
             "/wan/default/bandwidth_mbps: expected a number in [0.01, 100000]"},
        Case{"bandwidth_1e_minus7", "sim " + kQuick + kOut + " --set topology.wan.default.bandwidth_mbps=1e-7", 2,
             "/wan/default/bandwidth_mbps: expected a number in [0.01, 100000]"},
        Case{"bandwidth_1e6", "sim " + kQuick + kOut + " --set topology.lan.bandwidth_mbps=1e6", 2,
             "/lan/bandwidth_mbps"},
        Case{"trace_to_1e_minus5",
             "sim " + kQuick + kOut + " --set 'topology.wan.default.trace=[{\"t_s\":1,\"bandwidth_mbps\":1e-5}]'", 2,
             "/wan/default/trace/0/bandwidth_mbps"},
        Case{"loss_half", "sim " + kQuick + kOut + " --set topology.wan.default.loss=0.5", 2,
             "/wan/default/loss: expected a number in [0, 0.1]"},
        Case{"latency_30s", "sim " + kQuick + kOut + " --set topology.wan.default.latency_ms=30000", 2,
             "/wan/default/latency_ms"},
        Case{"sim_time_1e308", "sim " + kQuick + kOut + " --set stop.sim_time_s=1e308", 2, "/stop/sim_time_s"},
        Case{"lr_1e308", "sim " + kQuick + kOut + " --set optimizer.lr=1e308", 2, "/optimizer/lr"},
        Case{"tcp_buffer_4g", "sim " + kQuick + kOut + " --set network.tcp_buffer_bytes=4294967296", 2,
             "/network/tcp_buffer_bytes"},
        Case{
            "huge_synthetic_data",
            "sim " + kQuick + kOut + " --set 'dataset={\"kind\":\"synthetic\",\"features\":100000,\"train\":10000000}'",
            2, "/dataset: synthetic data of features x (train + test)"},
        Case{"huge_model", "sim " + kQuick + kOut + " --set 'model={\"kind\":\"mlp\",\"hidden\":[65536,65536]}'", 2,
             "parameters"}),
    [](const auto& i) { return std::string(i.param.name); });

INSTANTIATE_TEST_SUITE_P(
    Group7UnboundedInputs, Rejects,
    ::testing::Values(
        Case{"dev_zero_scenario", "sim /dev/zero" + kOut, 2, "/dev/zero: not a regular file"},
        Case{"dev_zero_topology", "sim " + kQuick + kOut + " --set topology=/dev/zero", 2, "not a regular file"},
        Case{"set_index_far_past_the_end", "sim " + kQuick + kOut + " --set topology.dcs.100000000.workers=1", 2,
             "expected an array index from 0 to 3"},
        // Found by the JSON fuzz target: a '/' inside a key used to reach nlohmann as an array index.
        Case{"set_slash_in_a_key", "sim " + kQuick + kOut + " --set 'network.x/99999999=1'", 2,
             "unknown key \"x/99999999\""},
        Case{"set_index_into_nothing", "sim " + kQuick + kOut + " --set network.x.5000000=1", 2, "no array here"}),
    [](const auto& i) { return std::string(i.param.name); });

INSTANTIATE_TEST_SUITE_P(Group9LateChecks, Rejects,
                         ::testing::Values(Case{"unwritable_out", "sim " + kQuick + " --out /proc/geotrain-out -q", 2,
                                                "--out /proc/geotrain-out: cannot create the output directory"},
                                           Case{"out_is_a_file", "sim " + kQuick + " --out /etc/hostname -q", 2,
                                                "--out /etc/hostname"}),
                         [](const auto& i) { return std::string(i.param.name); });

// Group 5: a run that cannot reach its stop condition is a failure, with its partial summary.
TEST(SilentSuccess, ARunThatRunsOutOfEventsExitsOneAndSaysWhy) {
  const std::string out = scratch("no-events");
  // Every link loses 10% of its packets: a connection's retransmissions are
  // lost six times in a row and TCP gives up on it (this seed does at 104 s).
  const auto r = run_geotrain("sim " + kQuick + " --out " + out + " -q --set stop.rounds=50" +
                              " --set topology.wan.default.loss=0.1 --set topology.lan.loss=0.1");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("ran out of events"), std::string::npos) << r.output;
  const auto s = read_json(out + "/summary.json");
  EXPECT_LT(s["rounds"].get<int>(), 50);
  EXPECT_NE(s["error"].get<std::string>().find("ran out of events"), std::string::npos);
  fs::remove_all(out);
}

TEST(SilentSuccess, NoRoundAtAllIsAnError) {
  const std::string out = scratch("no-round");
  const auto r =
      run_geotrain("sim " + kQuick + " --out " + out + " -q --set stop.rounds=0 --set stop.sim_time_s=0.001");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no round completed"), std::string::npos) << r.output;
  fs::remove_all(out);
}

TEST(SilentSuccess, NanLossStopsTheRunWithAClearError) {
  const std::string out = scratch("nan");
  const auto r = run_geotrain(
      "sim " + kQuick + " --out " + out + " -q --set stop.rounds=30" +
      set_args({R"(optimizer={"kind":"sgd","lr":1000})", R"(model={"kind":"mlp","hidden":[16]})",
                R"(dataset={"kind":"synthetic","features":32,"classes":4,"train":2000,"test":400,"noise":1000000})"}));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("training diverged at round"), std::string::npos) << r.output;
  EXPECT_LT(read_json(out + "/summary.json")["rounds"].get<int>(), 30);
  fs::remove_all(out);
}

TEST(SilentSuccess, TheInSchemaExtremesThatUsedToReportZeroRoundsNowTrain) {
  // A 100 Gbps WAN at 50 ms used to overflow ns-3's 32-bit TCP buffers; 10 s latency and 10% loss still run.
  for (const char* set : {"--set topology.wan.default.bandwidth_mbps=1e5",
                          "--set topology.wan.default.latency_ms=10000", "--set topology.wan.default.loss=0.1"}) {
    const std::string out = scratch("extreme");
    const auto r = run_geotrain("sim " + kQuick + " --out " + out + " -q --set stop.rounds=5 " + set);
    EXPECT_EQ(r.exit_code, 0) << set << "\n" << r.output;
    EXPECT_EQ(read_json(out + "/summary.json")["rounds"], 5) << set;
    fs::remove_all(out);
  }
}

// Group 6: deeply nested JSON is refused before anything walks it recursively.
TEST(JsonInput, DeepNestingIsRefusedNotACrash) {
  const std::string d = scratch("deep");
  write(d + "/deep.json", std::string(100000, '[') + std::string(100000, ']'));
  const auto r = run_geotrain("validate " + d + "/deep.json");
  EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 300);
  EXPECT_NE(r.output.find("nested deeper than 64 levels"), std::string::npos) << r.output.substr(0, 300);
  const auto s =
      run_geotrain("sim " + kQuick + kOut + " --set 'model=" + std::string(1000, '[') + std::string(1000, ']') + "'");
  EXPECT_EQ(s.exit_code, 2) << s.output.substr(0, 300);
  fs::remove_all(d);
}

// Group 7: files that never end, and files too large to be inputs.
TEST(JsonInput, OversizeFilesAreRefusedAtTheLimit) {
  const std::string d = scratch("big");
  write(d + "/big.json", "{\"name\": \"" + std::string(17 << 20, 'x') + "\"}");
  const auto r = run_geotrain("validate " + d + "/big.json");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("larger than 16 MiB"), std::string::npos) << r.output;
  fs::remove_all(d);
}

// Group 9: what nlohmann::json resolves silently is an error with its path.
TEST(JsonInput, DuplicateKeysAreRefusedWithTheirPath) {
  const std::string d = scratch("dup");
  std::ifstream in(kQuick);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  text.replace(text.find("\"batch_size\""), 0, "\"batch_size\": 8, ");
  write(d + "/dup.json", text);
  const auto r = run_geotrain("validate " + d + "/dup.json");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/batch_size: duplicate key \"batch_size\""), std::string::npos) << r.output;
  // Nested, inside an array.
  write(d + "/dup2.json", R"({"a": [1, {"b": {"c": 1, "c": 2}}]})");
  const auto r2 = run_geotrain("validate " + d + "/dup2.json");
  EXPECT_NE(r2.output.find("/a/1/b/c: duplicate key \"c\""), std::string::npos) << r2.output;
  fs::remove_all(d);
}

TEST(JsonInput, TheSameWanLinkTwiceIsRefused) {
  const auto r =
      run_geotrain("sim " + kQuick + kOut +
                   " --set 'topology.wan.links=[{\"between\":[\"dc-a\",\"dc-b\"],\"bandwidth_mbps\":10,"
                   "\"latency_ms\":5},{\"between\":[\"dc-b\",\"dc-a\"],\"bandwidth_mbps\":20,\"latency_ms\":5}]'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/wan/links/1/between: a second link between dc-b and dc-a"), std::string::npos) << r.output;
}

// Group 7: validation takes time linear in the input and refuses what cannot run.
TEST(JsonInput, TenThousandDataCentresAreRefusedQuickly) {
  const std::string d = scratch("dcs");
  nlohmann::json t = read_json(source_path("topologies/quickstart.json"));
  t.erase("$schema");
  t["dcs"] = nlohmann::json::array();
  for (int i = 0; i < 10000; ++i)
    t["dcs"].push_back({{"name", "dc" + std::to_string(i)}, {"workers", 1}, {"worker_gflops", 1}});
  t["global_server_dc"] = "dc0";
  write(d + "/t.json", t.dump());
  const auto r = run_geotrain("validate " + d + "/t.json");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/dcs: more than 1024 data centres (10000)"), std::string::npos) << r.output;
  fs::remove_all(d);
}

// Group 7: a gzip bomb as a dataset stops at the decompressed-size limit.
TEST(Dataset, GzipBombStopsAtTheLimit) {
  const std::string d = scratch("bomb");
  auto gz = [](const std::string& path, const std::string& head, std::size_t zeros) {
    gzFile f = gzopen(path.c_str(), "wb1");
    gzwrite(f, head.data(), unsigned(head.size()));
    const std::string block(1 << 20, '\0');
    for (std::size_t done = 0; done < zeros; done += block.size()) gzwrite(f, block.data(), unsigned(block.size()));
    gzclose(f);
  };
  // A valid 10-image file, and a label file that inflates to 80 MiB.
  std::string ih = {0, 0, 8, 3, 0, 0, 0, 10, 0, 0, 0, 2, 0, 0, 0, 2};
  gz(d + "/train-images-idx3-ubyte.gz", ih + std::string(40, '\1'), 0);
  std::string lh = {0, 0, 8, 1, 0, 0, 0, 10};
  gz(d + "/train-labels-idx1-ubyte.gz", lh, std::size_t(80) << 20);
  EXPECT_LT(fs::file_size(d + "/train-labels-idx1-ubyte.gz"), std::uintmax_t(1) << 20);
  const auto r = run_geotrain("sim " + kQuick + kOut + " --set 'dataset={\"kind\":\"idx\",\"path\":\"" + d + "\"}'");
  EXPECT_EQ(r.exit_code, 2) << r.output;  // the user's file: bad input, with the scenario's /dataset
  EXPECT_NE(r.output.find("/dataset: "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("when decompressed"), std::string::npos) << r.output;
  fs::remove_all(d);
}

// Group 7 and 9: sweeps that would enumerate forever, or resolve a conflict silently.
TEST(Sweep, HugeAndConflictingSweepsAreRefused) {
  const std::string d = scratch("sweep");
  nlohmann::json grid;
  std::vector<int> ten(10);
  for (int i = 0; i < 12; ++i) grid["eval.every_rounds_" + std::to_string(i)] = ten;  // 10^12 points
  write(d + "/huge.json", nlohmann::json({{"name", "huge"}, {"base", kQuick}, {"grid", grid}}).dump());
  auto r = run_geotrain("sweep " + d + "/huge.json --out " + d + "/o");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("more than 100000 points"), std::string::npos) << r.output;
  write(d + "/seed.json", R"({"name": "s", "base": ")" + kQuick + R"(", "grid": {"seed": [1, 2]}, "seeds": [3]})");
  r = run_geotrain("sweep " + d + "/seed.json --out " + d + "/o");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/grid/seed: the seed is swept by"), std::string::npos) << r.output;
  write(d + "/both.json", R"({"name": "b", "base": ")" + kQuick +
                              R"(", "grid": {"batch_size": [8, 16]}, "zip": {"batch_size": [32, 64]}})");
  r = run_geotrain("sweep " + d + "/both.json --out " + d + "/o");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("/zip/batch_size: \"batch_size\" is also a grid axis"), std::string::npos) << r.output;
  fs::remove_all(d);
}

// Group 9: a bad summary gives one error line and leaves no partial report.
TEST(Report, ABadSummaryIsOneErrorLineAndNoPartialReport) {
  for (const std::string& summary : {std::string(R"({"runtime": "sim"})"), std::string("{not json")}) {
    const std::string d = scratch("report");
    write(d + "/summary.json", summary);
    const auto r = run_geotrain("report " + d);
    EXPECT_EQ(r.exit_code, 2) << r.output;  // the directory's files are the user's input
    EXPECT_EQ(r.output.rfind("error: ", 0), 0u) << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output;
    EXPECT_EQ(r.output.find("Traceback"), std::string::npos) << r.output;
    EXPECT_FALSE(fs::exists(d + "/report")) << "a partial report was left behind";
    EXPECT_FALSE(fs::exists(d + "/report.tmp"));
    fs::remove_all(d);
  }
}

// A 7-node deployment config of the quickstart on loopback (or `host` for node 1).
nlohmann::json deployment(const std::string& dir, const std::string& secret_file, const std::string& host1) {
  nlohmann::json cfg;
  cfg["scenario"] = source_path("scenarios/quickstart.json");
  cfg["sets"] = {R"(model={"kind":"softmax"})", R"(dataset={"kind":"synthetic"})", "stop.rounds=20"};
  cfg["secret_file"] = secret_file;
  cfg["out"] = dir + "/out";
  // Reserved against concurrent launches and tests until this test process ends.
  static real::PortPicker ports(std::uint32_t(::getpid()));
  for (int i = 0; i < 7; ++i) {
    const std::uint16_t port = ports.pick();
    cfg["nodes"].push_back({{"host", i == 1 ? host1 : "127.0.0.1"}, {"tcp_port", port}, {"udp_port", port}});
  }
  return cfg;
}

// Group 9: a deployment's addresses are resolved when it is read, so validate catches a bad one.
TEST(Deployment, HostNamesAreResolvedOrRejectedByValidate) {
  const std::string d = fresh_dir("hosts");
  fs::create_directories(d);
  std::ofstream(d + "/secret") << "0123456789abcdef0123456789abcdef\n";
  std::ofstream(d + "/bad.json") << deployment(d, d + "/secret", "no-such-host.invalid").dump(1);
  const auto bad = run_geotrain("validate " + d + "/bad.json");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("/nodes/1/host: cannot resolve host \"no-such-host.invalid\""), std::string::npos)
      << bad.output;
  std::ofstream(d + "/good.json") << deployment(d, d + "/secret", "localhost").dump(1);
  const auto good = run_geotrain("validate " + d + "/good.json");
  EXPECT_EQ(good.exit_code, 0) << good.output;
  EXPECT_NE(good.output.find("127.0.0.1"), std::string::npos) << good.output;
  fs::remove_all(d);
}

// Group 9: a node whose secret is wrong is told so, and stops instead of retrying forever.
TEST(Deployment, ANodeWithTheWrongSecretSaysSoAndExits) {
  const std::string d = fresh_dir("secret");
  fs::create_directories(d);
  std::ofstream(d + "/right") << "0123456789abcdef0123456789abcdef\n";
  std::ofstream(d + "/wrong") << "fedcba9876543210fedcba9876543210\n";
  nlohmann::json cfg = deployment(d, d + "/right", "127.0.0.1");
  std::ofstream(d + "/right.json") << cfg.dump(1);
  cfg["secret_file"] = d + "/wrong";  // the same nodes and ports, another secret
  std::ofstream(d + "/wrong.json") << cfg.dump(1);
  const pid_t gs = real::spawn_process(testing::geotrain_bin(), {"real", "--role", "0", "--config", d + "/right.json"},
                                       d + "/0.log");
  const auto start = std::chrono::steady_clock::now();
  const auto r = run_geotrain("real --role 2 --config " + d + "/wrong.json");
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  kill(gs, SIGKILL);
  waitpid(gs, nullptr, 0);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("refused us: peer failed authentication (wrong secret or unknown node id)"),
            std::string::npos)
      << r.output;
  EXPECT_LT(took, 30) << "the node kept retrying";
  fs::remove_all(d);
}

// Polls until no process matches `needle`, for up to `limit`; returns those left.
std::vector<int> wait_gone(const std::string& needle, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  std::vector<int> left = processes_with(needle);
  while (!left.empty() && std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    left = processes_with(needle);
  }
  return left;
}

// Group 8: a launcher killed with SIGKILL takes its nodes with it (no orphans holding ports).
TEST(Orphans, NodesDieWithAKilledLauncher) {
  const std::string out = fresh_dir("orphan-launch");
  const pid_t launcher =
      real::spawn_process(testing::geotrain_bin(),
                          {"launch", kQuick, "--out", out, "-q", "--set", R"(model={"kind":"softmax"})", "--set",
                           R"(dataset={"kind":"synthetic"})", "--set", "stop.rounds=1000000"},
                          "");
  for (int i = 0; i < 1500 && !fs::exists(out + "/epoch"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::string config = out + "/launch/config.json";
  ASSERT_EQ(processes_with(config).size(), 7u) << "the seven nodes should be running";
  const std::uint16_t port = read_json(config)["nodes"][0]["tcp_port"];
  kill(launcher, SIGKILL);
  waitpid(launcher, nullptr, 0);
  EXPECT_TRUE(wait_gone(config, std::chrono::seconds(10)).empty()) << "nodes outlived their launcher";
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket s(io);
  boost::system::error_code ec;
  s.connect({boost::asio::ip::make_address("127.0.0.1"), port}, ec);
  EXPECT_EQ(ec, boost::asio::error::connection_refused) << "the global server's port is still held";
  fs::remove_all(out);
}

// Group 8: a sweep killed with SIGKILL takes its running points with it.
TEST(Orphans, PointsDieWithAKilledSweep) {
  const std::string d = scratch("orphan-sweep");
  write(d + "/sweep.json", R"({"name": "orphans", "base": ")" + kQuick +
                               R"(", "sets": ["stop.rounds=1000000"], "grid": {"batch_size": [16, 32]}})");
  const pid_t sweep = real::spawn_process(testing::geotrain_bin(),
                                          {"sweep", d + "/sweep.json", "--out", d + "/o", "-j", "2", "-q"}, "");
  const std::string needle = d + "/o/runs/";
  for (int i = 0; i < 1500 && processes_with(needle).size() < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(processes_with(needle).size(), 2u) << "both points should be running";
  kill(sweep, SIGKILL);
  waitpid(sweep, nullptr, 0);
  EXPECT_TRUE(wait_gone(needle, std::chrono::seconds(10)).empty()) << "points outlived their sweep";
  fs::remove_all(d);
}

// A run that cannot fit in memory is refused before any node is built, with the estimate and the
// limit, in both runtimes (the limit set low here; by default it is 80% of the available memory).
TEST(Limits, RunsThatCannotFitInMemoryAreRefusedUpFront) {
  setenv("GEOTRAIN_MEMORY_LIMIT_MB", "100", 1);
  for (const std::string cmd : {"sim ", "launch "}) {
    const auto r = run_geotrain(cmd + kQuick + kOut);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("would need about"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("more than the 100 MB"), std::string::npos) << r.output;
  }
  unsetenv("GEOTRAIN_MEMORY_LIMIT_MB");
}

}  // namespace
}  // namespace geotrain
