// Faults as the README promises them, whatever their cause (issue 8, groups 3
// and 4): stalled nodes rejoin and their DC contributes again, a restarted
// local server re-adopts its workers, a crash from outside the launcher is a
// fault and not an abort, a lost global server ends the job promptly with a
// partial summary, and collect summarises a multi-host run with a node lost.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <thread>

#include "real/port_picker.h"
#include "real/process.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

using namespace testing;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// Node ids of the quickstart deployment: 0 global server, 1 dc-a's local
// server, 2-3 its workers, 4 dc-b's local server, 5-6 its workers.
constexpr int kRounds = 300;

// Waits until the job has started (the global server wrote the epoch) and `delay` more.
void after_start(const std::string& out, double delay) {
  for (int i = 0; i < 3000 && !fs::exists(out + "/epoch"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::duration<double>(delay));
}

// Steps of each worker, from their node reports.
std::vector<int> worker_steps(const std::string& out) {
  std::vector<int> steps;
  for (int id : {2, 3, 5, 6}) {
    const std::string p = out + "/nodes/" + std::to_string(id) + ".json";
    steps.push_back(fs::exists(p) ? read_json(p)["steps"].get<int>() : -1);
  }
  return steps;
}

bool has_fault(const nlohmann::json& s, const std::string& node, const std::string& text) {
  for (const auto& f : s["faults"])
    if (f["node"] == node && f["event"].get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

// SIGSTOP the given nodes for `stall_s` (longer than the failure timeout), then SIGCONT.
void stall(const std::string& config, const std::vector<int>& ids, double stall_s) {
  std::vector<int> pids;
  for (int id : ids) pids.push_back(node_pid(config, id));
  for (int p : pids) {
    ASSERT_GT(p, 0);
    kill(p, SIGSTOP);
  }
  std::this_thread::sleep_for(std::chrono::duration<double>(stall_s));
  for (int p : pids) kill(p, SIGCONT);
}

// A launch of kRounds with a 1 s failure timeout; `act` runs 1.5 s after the job
// started, given the deployment config. Returns the summary (null if the launch failed).
// A 10 ms WAN makes a round take about 22 ms (two WAN trips and the steps: 300
// rounds in 6.6 s), so a 3 s stall at 1.5 s leaves most of the rounds after it.
nlohmann::json launch_and(const std::string& out, const std::function<void(const std::string& config)>& act) {
  std::vector<std::string> sets = small_sets(kRounds);
  sets.push_back("topology.wan.default.latency_ms=10");
  BackgroundLaunch job(out, " -q --timeout 200 --failure-timeout 1" + set_args(sets));
  job.config();
  after_start(out, 1.5);
  act(out + "/launch/config.json");
  const auto& r = job.finish();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return r.exit_code == 0 ? read_json(out + "/summary.json") : nlohmann::json();
}

class StalledNodes : public ::testing::TestWithParam<std::vector<int>> {};

TEST_P(StalledNodes, AreDroppedThenCaughtUpAndTheirDcContributesAgain) {
  const std::string out = fresh_dir("stall");
  const auto s = launch_and(out, [&](const std::string& config) { stall(config, GetParam(), 3); });
  ASSERT_FALSE(s.is_null());
  EXPECT_EQ(s["rounds"], kRounds);
  EXPECT_TRUE(has_fault(s, "global-server", "dc-a/local-server declared down")) << s["faults"].dump(1);
  EXPECT_TRUE(has_fault(s, "global-server", "dc-a/local-server is back")) << s["faults"].dump(1);
  // dc-a's workers (2, 3) missed the stall, not the rest of the run: they took most of the rounds.
  const auto steps = worker_steps(out);
  EXPECT_GT(steps[0], kRounds / 2) << "dc-a never contributed again";
  EXPECT_GT(steps[1], kRounds / 2);
  fs::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Faults, StalledNodes, ::testing::Values(std::vector<int>{1}, std::vector<int>{1, 4}),
                         [](const auto& i) { return i.param.size() == 1 ? "OneLocalServer" : "BothLocalServers"; });

TEST(Faults, AStalledWorkerRejoinsItsRound) {
  const std::string out = fresh_dir("stall-worker");
  const auto s = launch_and(out, [](const std::string& config) { stall(config, {3}, 3); });
  ASSERT_FALSE(s.is_null());
  EXPECT_EQ(s["rounds"], kRounds);
  EXPECT_TRUE(has_fault(s, "dc-a/local-server", "dc-a/worker1 is back")) << s["faults"].dump(1);
  EXPECT_GT(worker_steps(out)[1], kRounds / 2) << "the stalled worker never contributed again";
  fs::remove_all(out);
}

TEST(Faults, ARestartedLocalServerReadoptsItsWorkers) {
  const std::string out = fresh_dir("restart-ls");
  const auto r = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out +
                              " -q --timeout 200 --failure-timeout 1 --kill-node 1 --kill-after 2 --restart "
                              "--restart-after 2" +
                              set_args(small_sets(kRounds)));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto s = read_json(out + "/summary.json");
  EXPECT_EQ(s["rounds"], kRounds);
  EXPECT_TRUE(has_fault(s, "global-server", "dc-a/local-server joined the running job")) << s["faults"].dump(1);
  const auto steps = worker_steps(out);
  EXPECT_GT(steps[0], kRounds / 2) << "dc-a's workers were never re-adopted";
  EXPECT_GT(steps[1], kRounds / 2);
  fs::remove_all(out);
}

// A process stopped from outside (SIGSTOP) and never continued: the job finishes
// without it, and the launcher ends it after the job (SIGCONT, SIGTERM) instead
// of waiting for it forever, and says so.
TEST(Faults, AStoppedProcessDoesNotHoldAFinishedJob) {
  const std::string out = fresh_dir("stopped-forever");
  BackgroundLaunch job(out, " -q --timeout 100 --failure-timeout 1" + set_args(small_sets(kRounds)));
  job.config();
  after_start(out, 1.5);
  const int pid = node_pid(out + "/launch/config.json", 1);
  ASSERT_GT(pid, 0);
  kill(pid, SIGSTOP);
  const auto& r = job.finish();
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto s = read_json(out + "/summary.json");
  EXPECT_EQ(s["rounds"], kRounds);
  EXPECT_TRUE(has_fault(s, "dc-a/local-server",
                        "still running 5 s after the job ended (stopped by a signal from outside the launcher); "
                        "ended by the launcher"))
      << s["faults"].dump(1);
  EXPECT_TRUE(fs::exists(out + "/nodes/1.json")) << "the ended process wrote its report";
  fs::remove_all(out);
}

// Ctrl-C in a terminal reaches the launcher's whole process group: the job ends
// as at --timeout, every node's report written, and the error names the interrupt.
TEST(Faults, CtrlCToTheProcessGroupEndsTheJobAsATimeoutDoesLosingNoReport) {
  const std::string out = fresh_dir("ctrl-c");
  CommandResult r;
  std::thread launcher([&] {  // its own session: a process group to signal that the test is not in
    const std::string cmd = "setsid " + geotrain_bin() + " launch " + source_path("scenarios/quickstart.json") +
                            " --out " + out + " -q --timeout 100 --failure-timeout 1" + set_args(small_sets(1000000)) +
                            " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    char buf[4096];
    std::size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
    const int status = pclose(p);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  });
  for (int i = 0; i < 1500 && !fs::exists(out + "/launch/config.json"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  after_start(out, 1.5);
  const int node = node_pid(out + "/launch/config.json", 0);
  ASSERT_GT(node, 0);
  const pid_t group = getpgid(node);
  ASSERT_NE(group, getpgrp());
  kill(-group, SIGINT);
  launcher.join();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const auto s = read_json(out + "/summary.json");
  EXPECT_NE(s["error"].get<std::string>().find("interrupted by SIGINT (Ctrl-C)"), std::string::npos) << s["error"];
  EXPECT_GT(s["rounds"].get<int>(), 0);
  EXPECT_FALSE(s["final_test_accuracy"].is_null());
  for (int id = 0; id < 7; ++id)
    EXPECT_TRUE(fs::exists(out + "/nodes/" + std::to_string(id) + ".json")) << "node " << id << "'s report is lost";
  EXPECT_EQ(r.output.find("from outside the launcher"), std::string::npos) << r.output;
  fs::remove_all(out);
}

// A crash the launcher did not cause (kill -9 from outside) is a fault: the job goes on.
TEST(Faults, AWorkerKilledFromOutsideIsAFaultNotAnAbort) {
  const std::string out = fresh_dir("outside-kill");
  const auto s = launch_and(out, [](const std::string& config) {
    const int pid = node_pid(config, 3);
    ASSERT_GT(pid, 0);
    kill(pid, SIGKILL);
  });
  ASSERT_FALSE(s.is_null());
  EXPECT_EQ(s["rounds"], kRounds);
  EXPECT_TRUE(has_fault(s, "dc-a/worker1", "crashed (signal 9")) << s["faults"].dump(1);
  EXPECT_TRUE(has_fault(s, "dc-a/local-server", "dc-a/worker1 declared down")) << s["faults"].dump(1);
  fs::remove_all(out);
}

TEST(Faults, AGlobalServerLostWithoutACheckpointEndsTheJobPromptlyWithAPartialSummary) {
  const std::string out = fresh_dir("gs-lost");
  const auto start = Clock::now();
  const auto r = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out +
                              " -q --failure-timeout 1 --kill-node 0 --kill-after 2" + set_args(small_sets(100000)));
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("the global server was lost"), std::string::npos) << r.output;
  EXPECT_LT(took, 30) << "the job must end promptly, not wait for a timeout";
  const auto s = read_json(out + "/summary.json");
  EXPECT_NE(s["error"].get<std::string>().find("no checkpoint"), std::string::npos);
  EXPECT_GT(s["rounds"].get<int>(), 0) << "rounds as far as the workers got";
  EXPECT_GT(s["worker_steps"].get<int>(), 0) << "the surviving nodes' reports are merged";
  fs::remove_all(out);
}

// MultiGPS: a shard server restarted mid-run resumes its shard from its own
// checkpoint (snapshot + log) and its children send it again what it lacks, so
// every round completes; without a checkpoint its shard is gone, and the job
// ends at once saying so.
TEST(Faults, ARestartedShardServerResumesFromItsCheckpointOrEndsTheJobWithout) {
  std::vector<std::string> sets = small_sets(300);
  sets.push_back(R"(multigps={"servers":2,"split_above":100})");
  for (const bool checkpoint : {true, false}) {
    const std::string out = fresh_dir(std::string("shard-restart-") + (checkpoint ? "ckpt" : "none"));
    const auto r = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out +
                                " -q --timeout 120 --failure-timeout 1 --fault restart:global-server-1@1" +
                                (checkpoint ? " --checkpoint-every 7" : "") + set_args(sets));
    const auto s = read_json(out + "/summary.json");
    if (checkpoint) {
      ASSERT_EQ(r.exit_code, 0) << r.output;
      EXPECT_EQ(s["rounds"].get<int>(), 300);
      const auto shard = read_json(out + "/nodes/7.json");
      EXPECT_GT(shard["restored_rounds"].get<int>(), 0) << "resumed from its checkpoint, not from zero";
      EXPECT_EQ(shard["rounds"].get<int>(), 300) << "the shard applied every round";
    } else {
      EXPECT_EQ(r.exit_code, 1) << r.output;
      EXPECT_NE(s["error"].get<std::string>().find("global-server-1 (a shard of the model) was restarted, but it "
                                                   "has no checkpoint"),
                std::string::npos)
          << s["error"];
    }
    fs::remove_all(out);
  }
}

// A node lost while the job is still starting (killed before it could join): the global server waits
// --startup-timeout for it, then starts without a missing worker, whose local server counts it down at
// once, and ends the job with an error naming a missing server. Every fault is on the run's clock.
struct StartupLoss {
  int node;
  int exit_code;
  const char* summary_text;
};

class NodeLostDuringStartup : public ::testing::TestWithParam<StartupLoss> {};

TEST_P(NodeLostDuringStartup, EndsOrProceedsWithinTheStartupTimeout) {
  const StartupLoss c = GetParam();
  const std::string out = fresh_dir("startup-loss-" + std::to_string(c.node));
  const auto start = Clock::now();
  const auto r = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out +
                              " -q --timeout 120 --failure-timeout 1 --startup-timeout 3 --kill-node " +
                              std::to_string(c.node) + " --kill-after 0" + set_args(small_sets(20)));
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_EQ(r.exit_code, c.exit_code) << r.output;
  EXPECT_LT(took, 60) << "bounded by the start-up timeout, not by --timeout";
  const auto s = read_json(out + "/summary.json");
  EXPECT_NE(s.dump().find(c.summary_text), std::string::npos) << s.dump(1);
  for (const auto& f : s["faults"]) {
    EXPECT_GE(f["time_s"].get<double>(), 0) << f.dump();
    EXPECT_LT(f["time_s"].get<double>(), took) << "seconds since the run's start, not since 1970: " << f.dump();
  }
  fs::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(
    Faults, NodeLostDuringStartup,
    ::testing::Values(StartupLoss{2, 0, "dc-a/worker0 never joined; the rounds proceed without it"},
                      StartupLoss{1, 1, "start-up timed out after 3 s: dc-a/local-server (node 1) did not join"}),
    [](const auto& info) { return info.param.node == 2 ? std::string("worker") : std::string("local_server"); });

// A multi-host deployment of the quickstart on loopback, one `geotrain real` per node.
std::vector<pid_t> start_multi_host(const std::string& dir, int rounds) {
  fs::create_directories(dir);
  std::ofstream(dir + "/secret") << "multi-host-fault-test-secret-0123456789\n";
  nlohmann::json cfg;
  cfg["scenario"] = source_path("scenarios/quickstart.json");
  cfg["sets"] = small_sets(rounds);
  cfg["secret_file"] = dir + "/secret";
  cfg["out"] = dir + "/out";
  cfg["failure_timeout_s"] = 1;
  // Reserved against concurrent launches and tests until this test process ends.
  static real::PortPicker ports(std::uint32_t(::getpid()));
  for (int i = 0; i < 7; ++i) {
    const std::uint16_t port = ports.pick();
    cfg["nodes"].push_back({{"host", "127.0.0.1"}, {"tcp_port", port}, {"udp_port", port}});
  }
  std::ofstream(dir + "/config.json") << cfg.dump(1);
  std::vector<pid_t> pids;
  for (int i = 0; i < 7; ++i)
    pids.push_back(real::spawn_process(testing::geotrain_bin(),
                                       {"real", "--role", std::to_string(i), "--config", dir + "/config.json"},
                                       dir + "/" + std::to_string(i) + ".log"));
  after_start(dir + "/out", 0.3);
  return pids;
}

// Multi-host: a worker dies for good; collect still writes the summary and lists it.
TEST(Faults, CollectSummarisesAMultiHostRunWithALostWorker) {
  const std::string dir = fresh_dir("collect-lost");
  const auto pids = start_multi_host(dir, 3000);  // no WAN emulation here: rounds are much faster
  kill(pids[3], SIGKILL);
  for (pid_t p : pids) waitpid(p, nullptr, 0);
  const auto r = run_geotrain("collect --config " + dir + "/config.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto s = read_json(dir + "/out/summary.json");
  EXPECT_EQ(s["rounds"], 3000);
  EXPECT_TRUE(has_fault(s, "dc-a/worker1", "lost; no report")) << s["faults"].dump(1);
  fs::remove_all(dir);
}

// Multi-host, no launcher to notice: without its global server (and no checkpoint to bring it back)
// every other node gives up on its own, and collect writes a partial summary that says why.
TEST(Faults, WithoutTheGlobalServerAMultiHostJobEndsAndCollectSaysWhy) {
  const std::string dir = fresh_dir("mh-gs-lost");
  const auto pids = start_multi_host(dir, 1000000);
  kill(pids[0], SIGKILL);
  const auto start = Clock::now();
  for (pid_t p : pids) waitpid(p, nullptr, 0);
  const double took = std::chrono::duration<double>(Clock::now() - start).count();
  EXPECT_LT(took, 60) << "nodes must not wait forever for a global server that cannot come back";
  const auto r = run_geotrain("collect --config " + dir + "/config.json");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no report from the global server"), std::string::npos) << r.output;
  const auto s = read_json(dir + "/out/summary.json");
  EXPECT_GT(s["worker_steps"].get<int>(), 0);
  EXPECT_TRUE(has_fault(s, "dc-a/local-server", "cannot reach global-server")) << s["faults"].dump(1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace geotrain
