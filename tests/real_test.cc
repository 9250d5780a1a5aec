// Real mode end to end: processes on loopback through `geotrain launch`.
#include <gtest/gtest.h>

#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <thread>

#include "core/json/json_reader.h"
#include "core/payload/wire.h"
#include "real/auth.h"
#include "real/datagram.h"
#include "real/frame.h"
#include "sim/sim_runner.h"
#include "tests/real_test_util.h"

namespace geotrain {
namespace {

namespace asio = boost::asio;
using testing::BackgroundLaunch;
using testing::fresh_dir;
using testing::hit;
using testing::read_json;
using testing::run_geotrain;
using testing::set_args;
using testing::small_sets;
using testing::source_path;
using testing::wait_for_listener;

// The quickstart with `sets`, launched for real (on loopback) and simulated:
// the two summaries, real first. Fails the test (empty summaries) if the
// launch does not exit 0.
std::pair<nlohmann::json, nlohmann::json> launch_and_simulate(const std::string& name,
                                                              const std::vector<std::string>& sets) {
  const std::string out = fresh_dir("launch-" + name);
  const auto r = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out +
                              " -q --timeout 120" + set_args(sets));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  if (r.exit_code != 0) return {};
  nlohmann::json real = read_json(out + "/summary.json");
  std::filesystem::remove_all(out);
  return {real, summary_json(sim::run_simulation(load_scenario(source_path("scenarios/quickstart.json"), sets)))};
}

// Every architecture and policy in core/ runs in real mode from the scenario
// file and trains like the simulation.
class RealModeEvery : public ::testing::TestWithParam<const char*> {};

TEST_P(RealModeEvery, LaunchTrainsLikeTheSimulation) {
  auto sets = small_sets(40);
  sets.push_back(std::string("architecture=") + GetParam());
  const std::string out = fresh_dir(std::string("launch-") + GetParam());
  const auto r = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out +
                              " -q --timeout 120" + set_args(sets));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto real = read_json(out + "/summary.json");
  const RunResult sim = sim::run_simulation(load_scenario(source_path("scenarios/quickstart.json"), sets));
  EXPECT_EQ(real["runtime"], "real");
  EXPECT_EQ(real["rounds"], 40);
  EXPECT_EQ(real["worker_steps"], 160);
  EXPECT_NEAR(real["final_test_accuracy"].get<double>(), sim.timeline.back().metrics.at(0), 0.01);
  EXPECT_GT(real["bytes"]["wan"].get<double>(), 0);
  EXPECT_EQ(real["architecture"], GetParam());
  EXPECT_EQ(real["policy"], "bsp");  // the scenario says "fsa", bsp's alias
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Architectures, RealModeEvery, ::testing::Values("hips", "flat"));

// The other policies (asynchronous, mixed, federated) from the same scenario
// file in both runtimes: the server applies each push (one or more steps);
// under asp no worker ever waits.
class RealModePolicy : public ::testing::TestWithParam<const char*> {};

TEST_P(RealModePolicy, RunsFromTheScenarioFileInBothRuntimes) {
  const std::string param = GetParam(), policy = param.substr(0, param.find('/')),
                    arch = param.substr(param.find('/') + 1);
  auto sets = small_sets(40);
  sets.push_back("architecture=" + arch);
  sets.push_back(R"(policy={"kind":")" + policy + R"("})");
  const auto [real, sim] = launch_and_simulate(policy + "-" + arch, sets);
  ASSERT_FALSE(real.is_null());
  for (const nlohmann::json& s : {real, sim}) {
    EXPECT_EQ(s["policy"], policy);
    EXPECT_EQ(s["rounds"], 40);
    EXPECT_GE(s["worker_steps"].get<int>(), 40);
    if (policy == "asp") {
      for (const auto& dc : s["dcs"]) EXPECT_EQ(dc["blocked_fraction"].get<double>(), 0.0) << s["runtime"];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, RealModePolicy,
                         ::testing::Values("asp/flat", "ssp/flat", "asp/hips", "mixed_sync/hips", "fedavg/hips",
                                           "fedasync/flat", "fedasync/hips"));

// esync and nbsync from the same scenario file in both runtimes: the state
// server is a process of its own, reached over the (emulated) network; a DC
// 8.3x faster than the other takes floor((1.0 - 0.1) / 0.12) = 7 local steps
// per round in both (after a first round of one), and nbsync's pipelined
// workers step on, one round ahead at most. (1.0 - 0.1) / 0.12 = 7.5 sits
// half a step from either integer: real mode's clock may slip 60 ms against
// the slowest worker's before the count changes, so a loaded CI machine
// does not flip it.
class RealModeStateServer : public ::testing::TestWithParam<const char*> {};

TEST_P(RealModeStateServer, StepsPerRoundAgreeInBothRuntimes) {
  const std::string policy = GetParam();
  auto sets = small_sets(10);
  sets.push_back("topology.wan.default.latency_ms=1");
  sets.push_back("topology.dcs.1.worker_gflops=0.0018432");    // 0.12 s per step of 64 samples of this MLP
  sets.push_back("topology.dcs.2.worker_gflops=0.000221184");  // 1.0 s
  sets.push_back(R"(policy={"kind":")" + policy + R"(","eps":0.1})");
  const auto [real, sim] = launch_and_simulate(policy, sets);
  ASSERT_FALSE(real.is_null());
  for (const nlohmann::json& s : {real, sim}) {
    EXPECT_EQ(s["rounds"], 10) << s["runtime"];
    EXPECT_GT(s["state_server"]["reports"].get<int>(), 40) << s["runtime"];
    ASSERT_EQ(s["workers"].size(), 4u);
    for (const auto& w : s["workers"]) EXPECT_EQ(w["pushes"], 10) << s["runtime"] << " " << w["name"];
  }
  for (std::size_t i = 0; i < 4; ++i) {
    const int a = real["workers"][i]["steps"], b = sim["workers"][i]["steps"];
    if (policy == "esync") {
      EXPECT_EQ(a, b) << real["workers"][i]["name"];
      EXPECT_EQ(b, i < 2 ? 1 + 9 * 7 : 10) << sim["workers"][i]["name"];
    } else {  // pipelined: steps taken while a model travels depend on timing, a little
      EXPECT_NEAR(a, b, 3) << real["workers"][i]["name"];
    }
  }
  EXPECT_NEAR(real["final_test_accuracy"].get<double>(), sim["final_test_accuracy"].get<double>(), 0.02);
}

INSTANTIATE_TEST_SUITE_P(Policies, RealModeStateServer, ::testing::Values("esync", "nbsync"));

// HFA from the same scenario file in both runtimes: local servers close K2 - 1
// of every K2 rounds inside their DC, so both count K1 * K2 steps per worker
// per WAN sync and the same WAN syncs.
TEST(RealModeLocalRounds, HfaCountsTheSameStepsAndWanSyncsInBothRuntimes) {
  auto sets = small_sets(5);
  sets.push_back(R"(policy={"kind":"hfa","k1":2,"k2":3})");
  const auto [real, sim] = launch_and_simulate("hfa", sets);
  ASSERT_FALSE(real.is_null());
  for (const nlohmann::json& s : {real, sim}) {
    EXPECT_EQ(s["rounds"], 5) << s["runtime"];
    for (const auto& w : s["workers"]) EXPECT_EQ(w["steps"], 5 * 2 * 3) << s["runtime"] << " " << w["name"];
  }
  EXPECT_EQ(real["wan_syncs"], sim["wan_syncs"]);
  EXPECT_NEAR(real["final_test_accuracy"].get<double>(), sim["final_test_accuracy"].get<double>(), 0.02);
}

// local_sgd from the same scenario file in both runtimes: the same steps per
// round (h per worker) and, being synchronous, the same training.
TEST(RealModeLocalSgd, TakesHStepsPerRoundInBothRuntimes) {
  auto sets = small_sets(20);
  sets.push_back(R"(policy={"kind":"local_sgd","h":3})");
  const std::string out = fresh_dir("launch-local-sgd");
  const auto r = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out +
                              " -q --timeout 120" + set_args(sets));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto real = read_json(out + "/summary.json");
  const RunResult sim = sim::run_simulation(load_scenario(source_path("scenarios/quickstart.json"), sets));
  EXPECT_EQ(real["rounds"], 20);
  EXPECT_EQ(real["worker_steps"], 3 * 4 * 20);
  EXPECT_EQ(sim.worker_steps, 3 * 4 * 20);
  EXPECT_EQ(real["policy"], "local_sgd");
  for (const nlohmann::json& s : {real, summary_json(sim)}) {  // per worker, assembled alike in both runtimes
    ASSERT_EQ(s["workers"].size(), 4u) << s["runtime"];
    for (const auto& w : s["workers"]) {
      EXPECT_EQ(w["steps"], 60) << s["runtime"] << " " << w["name"];
      EXPECT_EQ(w["steps_per_push"], 3.0) << s["runtime"] << " " << w["name"];
    }
    EXPECT_EQ(s["staleness"]["max"], 0) << s["runtime"];
  }
  EXPECT_NEAR(real["final_test_accuracy"].get<double>(), sim.timeline.back().metrics.at(0), 0.01);
  std::filesystem::remove_all(out);
}

// Runs a 300-round launch with a fault injected; returns the summary.
nlohmann::json launch_with_fault(const std::string& name, const std::string& fault_args) {
  const std::string out = fresh_dir(name);
  const auto r = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out +
                              " -q --timeout 120 --failure-timeout 1 " + fault_args + set_args(small_sets(300)));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  nlohmann::json s = read_json(out + "/summary.json");
  s["gs_report"] = read_json(out + "/nodes/0.json");
  std::filesystem::remove_all(out);
  return s;
}

bool has_fault(const nlohmann::json& s, const std::string& node, const std::string& text) {
  for (const auto& f : s["faults"])
    if (f["node"] == node && f["event"].get<std::string>().find(text) != std::string::npos) return true;
  return false;
}

TEST(RealModeFaults, KilledWorkerIsDroppedAfterTheTimeoutAndTrainingCompletes) {
  // Node 3 is dc-a/worker1; it dies 2 s in and stays dead.
  const auto s = launch_with_fault("kill-worker", "--kill-node 3 --kill-after 2");
  EXPECT_EQ(s["rounds"], 300);
  EXPECT_TRUE(has_fault(s, "dc-a/local-server", "dc-a/worker1 declared down")) << s["faults"].dump(1);
  EXPECT_TRUE(has_fault(s, "dc-a/worker1", "killed")) << s["faults"].dump(1);
  for (const auto& f : s["faults"])  // every event sits on the job's time axis, the kill about 2 s after launch
    EXPECT_TRUE(f["time_s"] >= 0.0 && f["time_s"] <= s["sim_time_s"]) << f.dump();
  // Faults are sorted by time: the kill precedes its detection.
  const std::string all = s["faults"].dump();
  EXPECT_LT(all.find("killed by the launcher"), all.find("declared down")) << s["faults"].dump(1);
}

TEST(RealModeFaults, RestartedWorkerRejoinsFromTheCurrentModel) {
  const auto s = launch_with_fault("rejoin-worker", "--kill-node 3 --kill-after 2 --restart --restart-after 2");
  EXPECT_EQ(s["rounds"], 300);
  EXPECT_TRUE(has_fault(s, "global-server", "dc-a/worker1 joined the running job")) << s["faults"].dump(1);
  EXPECT_TRUE(has_fault(s, "dc-a/local-server", "dc-a/worker1 is back")) << s["faults"].dump(1);
  // The rejoined worker contributed: more than the three survivors' 900 steps.
  EXPECT_GT(s["worker_steps"].get<int>(), 900);
  EXPECT_GT(s["final_test_accuracy"].get<double>(), 0.9);
}

TEST(RealModeFaults, RestartedGlobalServerResumesFromItsCheckpointLosingNoRound) {
  const auto s =
      launch_with_fault("restart-gs", "--kill-node 0 --kill-after 3 --restart --restart-after 1 --checkpoint-every 10");
  EXPECT_EQ(s["rounds"], 300);
  // Exactly one step per worker per round: no round lost, none applied twice.
  EXPECT_EQ(s["worker_steps"], 4 * 300);
  EXPECT_GT(s["gs_report"]["restored_rounds"].get<int>(), 10) << "the restart must resume, not start over";
  EXPECT_TRUE(has_fault(s, "global-server", "resuming from the checkpoint"));
  double last = -1;
  for (const auto& row : s["gs_report"]["timeline"]) {  // time and rounds run on across the restart
    EXPECT_GT(row["time_s"].get<double>(), last);
    last = row["time_s"];
  }
}

// A phase-locked learner across a global-server restart: the tree learner's server-only blocks (the last
// level's histograms) are in its checkpoint and the logged rounds replay through the learner, so the job
// grows the trees a run without the fault grows, to the last bit of every metric.
TEST(RealModeFaults, TreesSurviveAGlobalServerRestartUnchanged) {
  const std::vector<std::string> sets = {
      R"(dataset={"kind":"synthetic","features":16,"classes":4,"train":800,"test":200,"noise":3})",
      R"(model={"kind":"xgboost","depth":3,"iterations":12,"bins":16,"sketch_rows":256})"};
  const std::string scenario = testing::source_path("scenarios/algo-xgboost.json");
  const std::string out = fresh_dir("trees-restart-gs");
  const auto r = run_geotrain("launch " + scenario + " --out " + out +
                              " -q --timeout 120 --failure-timeout 1 --kill-node 0 --kill-after 3 --restart "
                              "--restart-after 1 --checkpoint-every 5" +
                              set_args(sets));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto real = read_json(out + "/summary.json");
  const auto gs = read_json(out + "/nodes/0.json");
  EXPECT_TRUE(has_fault(real, "global-server", "resuming from the checkpoint")) << real["faults"].dump(1);
  EXPECT_GT(gs["restored_rounds"].get<int>(), 0) << "killed mid-run, resumed from a checkpoint";
  EXPECT_LT(gs["restored_rounds"].get<int>(), 37);
  const auto sim = summary_json(sim::run_simulation(load_scenario(scenario, sets)));
  EXPECT_EQ(real["rounds"], 37);
  EXPECT_EQ(real["metrics"]["values"], sim["metrics"]["values"]);
  std::filesystem::remove_all(out);
}

TEST(RealMode, RejectsUnauthenticatedWrongSecretAndGarbageWhileTraining) {
  const std::string out = fresh_dir("attack");
  BackgroundLaunch job(out, " -q --timeout 300" + set_args(small_sets(400)));
  const auto cfg = job.config();
  const std::uint16_t port = cfg["nodes"][0]["tcp_port"];
  const std::uint16_t udp_port = cfg["nodes"][0]["udp_port"];
  asio::io_context io;
  ASSERT_TRUE(wait_for_listener(io, port, std::chrono::seconds(30))) << "the global server never listened";
  std::mt19937 rng(5);
  int sent = 0;
  // 1. Unauthenticated: a well-formed message frame without the handshake.
  hit(io, port, real::make_frame(real::FrameType::kMessage, std::vector<std::uint8_t>(40, 1)));
  ++sent;
  // 2. Wrong secret: a correctly shaped auth response with a bogus MAC.
  {
    asio::ip::tcp::socket s(io);
    s.connect({asio::ip::make_address("127.0.0.1"), port});
    std::vector<std::uint8_t> challenge(real::kFrameHeaderBytes + real::kNonceBytes + real::kFrameTrailerBytes);
    asio::read(s, asio::buffer(challenge));
    std::vector<std::uint8_t> resp = {2, 0, 0, 0};
    const auto junk = real::random_bytes(real::kNonceBytes + real::kMacBytes);
    resp.insert(resp.end(), junk.begin(), junk.end());
    const auto f = real::make_frame(real::FrameType::kResponse, resp);
    asio::write(s, asio::buffer(f));
    // The server says it refuses (a client cannot fix a wrong secret by retrying), then hangs up: no accept frame.
    std::vector<std::uint8_t> refusal(real::kFrameHeaderBytes);
    asio::read(s, asio::buffer(refusal));
    EXPECT_EQ(refusal[5], std::uint8_t(real::FrameType::kRefused));
    std::vector<std::uint8_t> rest(4096);
    boost::system::error_code ec;
    asio::read(s, asio::buffer(rest), ec);
    EXPECT_EQ(ec, asio::error::eof) << "server kept a client with the wrong secret connected";
    ++sent;
  }
  // 3. 10,000 random, truncated and oversize frames, each on its own connection.
  for (int i = 0; i < 10000; ++i) {
    std::vector<std::uint8_t> bytes;
    switch (i % 3) {
      case 0:  // random bytes
        bytes.resize(1 + rng() % 200);
        for (auto& b : bytes) b = std::uint8_t(rng());
        break;
      case 1: {  // a valid header for a body that never fully arrives
        bytes = real::make_frame(real::FrameType::kResponse, std::vector<std::uint8_t>(68, 7));
        bytes.resize(1 + rng() % (bytes.size() - 1));
        break;
      }
      default: {  // claims a 2 GiB body: over the limit
        bytes = real::frame_header(real::FrameType::kResponse, 0);
        const std::uint32_t huge = 0x80000000u;
        std::memcpy(&bytes[8], &huge, 4);
        break;
      }
    }
    hit(io, port, bytes);
    ++sent;
  }
  // 4. Random UDP datagrams, paced: a burst can overflow the socket's receive buffer on a busy 2-core machine and
  // the kernel drops datagrams before the server ever sees them (CI counted 139 of 200 once).
  asio::ip::udp::socket u(io, asio::ip::udp::v4());
  for (int i = 0; i < 200; ++i) {
    if (i % 10 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    std::vector<std::uint8_t> d(1 + rng() % 1000);
    for (auto& b : d) b = std::uint8_t(rng());
    u.send_to(asio::buffer(d), {asio::ip::make_address("127.0.0.1"), udp_port});
  }
  // 5. Signed with the job's secret (an insider, or bytes captured and replayed): pushes "from dc-a's local
  // server" carrying NaN and infinite values and a sparse block whose indices run past its tensor, each
  // sent twice. Refused at decode, counted, never applied.
  const std::string secret = real::read_secret_file(cfg["secret_file"].get<std::string>());
  int hostile = 0;
  for (int i = 0; i < 40; ++i) {
    Message m;
    m.kind = MsgKind::kPush;
    m.channel = Channel::kBestEffort;
    m.from = 1;
    m.to = 0;
    m.round = i;
    auto p = std::make_shared<Payload>();
    ParamBlock b;
    b.key = 0;
    b.values = Eigen::VectorXf::Constant(64, 0.5f);
    b.values[i % 64] = i % 2 ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
    p->blocks.push_back(b);
    if (i % 4 == 0) {  // and a sparse block claiming index 1000 of a 16-entry tensor
      CodedBlock c;
      c.key = 1;
      c.n = 16;
      c.codec = 1;
      c.bytes.resize(12);
      const std::uint32_t k = 1, idx = 1000;
      const float v = 1;
      std::memcpy(c.bytes.data(), &k, 4);
      std::memcpy(c.bytes.data() + 4, &idx, 4);
      std::memcpy(c.bytes.data() + 8, &v, 4);
      p->coded.push_back(c);
    }
    m.payload = p;
    for (const auto& d : real::make_datagrams(1, 5000 + std::uint64_t(i), encode_message(m), secret))
      for (int copy = 0; copy < 2; ++copy) u.send_to(asio::buffer(d), {asio::ip::make_address("127.0.0.1"), udp_port});
    hostile += 2;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const auto& launch = job.finish();
  ASSERT_EQ(launch.exit_code, 0) << launch.output;
  const auto summary = read_json(out + "/summary.json");
  EXPECT_EQ(summary["rounds"], 400) << "training must complete despite the attack";
  const auto gs = read_json(out + "/nodes/0.json");
  EXPECT_GE(gs["rejected_links"].get<int>(), sent);
  EXPECT_GE(gs["rejected_datagrams"].get<int>(), 150 + hostile / 2);
  // The attack changes nothing: the same metrics as the simulation of the same job (which a calm launch
  // equals, RealModeEvery), and the global server's memory within 50 MB of a local server's, which was
  // not attacked.
  const auto sim =
      summary_json(sim::run_simulation(load_scenario(source_path("scenarios/quickstart.json"), small_sets(400))));
  EXPECT_EQ(summary["metrics"]["values"], sim["metrics"]["values"]);
  const double gs_mb = gs["peak_rss_mb"].get<double>(),
               ls_mb = read_json(out + "/nodes/1.json")["peak_rss_mb"].get<double>();
  EXPECT_LT(gs_mb, ls_mb + 50) << "attacked global server " << gs_mb << " MB, local server " << ls_mb << " MB";
  std::printf(
      "attack: %d connections and %d hostile signed datagrams sent; rejected links %d, datagrams %d; "
      "peak RSS global server %.1f MB, local server %.1f MB\n",
      sent, hostile, gs["rejected_links"].get<int>(), gs["rejected_datagrams"].get<int>(), gs_mb, ls_mb);
  std::filesystem::remove_all(out);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// The client's side of the handshake on a connected socket, claiming to be
// `node` with `secret`: true if the node accepted (sent its proof back).
bool handshake(asio::ip::tcp::socket& s, const std::string& secret, std::int32_t node) {
  std::vector<std::uint8_t> challenge(real::kFrameHeaderBytes + real::kNonceBytes + real::kFrameTrailerBytes);
  asio::read(s, asio::buffer(challenge));
  const auto nonce_at = challenge.begin() + real::kFrameHeaderBytes;
  const real::Bytes nonce(nonce_at, nonce_at + real::kNonceBytes);
  real::Bytes resp(sizeof node);
  std::memcpy(resp.data(), &node, sizeof node);
  const real::Bytes mine = real::random_bytes(real::kNonceBytes), mac = real::client_proof(secret, nonce, node);
  resp.insert(resp.end(), mine.begin(), mine.end());
  resp.insert(resp.end(), mac.begin(), mac.end());
  asio::write(s, asio::buffer(real::make_frame(real::FrameType::kResponse, resp)));
  std::vector<std::uint8_t> accept(real::kFrameHeaderBytes + real::kMacBytes + real::kFrameTrailerBytes);
  boost::system::error_code ec;
  asio::read(s, asio::buffer(accept), ec);
  return !ec && accept[5] == std::uint8_t(real::FrameType::kAccept);
}

// Plain-TCP handshake with node `port` claiming to be `node`, with the right secret.
bool plain_handshake_accepted(std::uint16_t port, const std::string& secret, std::int32_t node) {
  asio::io_context io;
  asio::ip::tcp::socket s(io);
  s.connect({asio::ip::make_address("127.0.0.1"), port});
  return handshake(s, secret, node);
}

// One of the job's own nodes (it holds the secret) that sends a frame larger than
// anything the job's learner produces: the receiving node ends the job at once with
// the cause (who, which frame, its size, the limit), not a stall a minute later.
TEST(RealMode, AnAuthenticatedPeersOversizeFrameEndsTheJobWithItsCause) {
  const std::string out = fresh_dir("oversize");
  BackgroundLaunch job(out, " -q --timeout 120" + set_args(small_sets(100000)));
  const auto cfg = job.config();
  const std::uint16_t port = cfg["nodes"][0]["tcp_port"];
  asio::io_context io;
  ASSERT_TRUE(wait_for_listener(io, port, std::chrono::seconds(30)));
  // Once the job runs, every node's links are up: ours then replaces node 1's own for a moment.
  for (int i = 0; i < 3000 && !std::filesystem::exists(out + "/epoch"); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  const std::string secret = real::read_secret_file(cfg["secret_file"].get<std::string>());
  asio::ip::tcp::socket s(io);
  s.connect({asio::ip::make_address("127.0.0.1"), port});
  ASSERT_TRUE(handshake(s, secret, 1)) << "as dc-a's local server";
  const auto t0 = std::chrono::steady_clock::now();
  auto header = real::frame_header(real::FrameType::kMessage, 0);
  const std::uint32_t huge = 0x7ffffff0u;
  std::memcpy(&header[8], &huge, 4);
  asio::write(s, asio::buffer(header));
  const auto& launch = job.finish();
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_NE(launch.exit_code, 0) << launch.output;
  const auto summary = read_json(out + "/summary.json");
  const std::string error = summary["error"];
  EXPECT_NE(error.find("dc-a/local-server (node 1) sent a message frame of 2147483632 bytes, above the job's limit"),
            std::string::npos)
      << error;
  EXPECT_LT(took, 30) << "the job ended " << took << " s after the frame";
  std::filesystem::remove_all(out);
}

// --tls wan: training completes with every cross-DC link in TLS, and a peer from
// another DC that knows the secret but skips TLS is refused while a same-DC one is not.
TEST(RealMode, TlsOnWanLinksTrainsAndRefusesPlainWanPeers) {
  const std::string out = fresh_dir("tls");
  BackgroundLaunch job(out, " -q --timeout 120 --tls wan" + set_args(small_sets(150)));
  const auto cfg = job.config();
  const std::string secret = real::read_secret_file(cfg["secret_file"]);
  asio::io_context io;
  ASSERT_TRUE(wait_for_listener(io, cfg["nodes"][1]["tcp_port"], std::chrono::seconds(30)))
      << "dc-a's local server never listened";
  // Node 1 is dc-a's local server, node 2 a dc-a worker, node 4 dc-b's local server.
  EXPECT_TRUE(plain_handshake_accepted(cfg["nodes"][1]["tcp_port"], secret, 2));
  EXPECT_FALSE(plain_handshake_accepted(cfg["nodes"][1]["tcp_port"], secret, 4));
  const auto& launch = job.finish();
  ASSERT_EQ(launch.exit_code, 0) << launch.output;
  const auto s = read_json(out + "/summary.json");
  EXPECT_EQ(s["rounds"], 150);
  EXPECT_EQ(s["network"]["tls"], "wan");
  // The global server sits in its own DC ("central"): both local servers reach it, and it them, over TLS.
  EXPECT_GE(s["network"]["tls_links_accepted"].get<int>(), 4);
  EXPECT_GT(s["final_test_accuracy"].get<double>(), 0.9);
  std::ifstream log(out + "/logs/1.log");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("must connect over TLS"), std::string::npos) << text;
  std::filesystem::remove_all(out);
}

// The multi-host recipe, on loopback: one `geotrain real` per node from a hand-written
// config, then `geotrain collect`.
// With every link TLS, no plain port exists to attack: connecting to it is refused.
TEST(RealMode, TlsOnAllLinksLeavesNoPlainPortOpen) {
  const std::string out = fresh_dir("tls-all");
  BackgroundLaunch job(out, " -q --timeout 120 --tls all" + set_args(small_sets(100)));
  const auto cfg = job.config();
  asio::io_context io;
  ASSERT_TRUE(wait_for_listener(io, cfg["nodes"][1]["tls_port"], std::chrono::seconds(30)));
  for (int id = 0; id < 3; ++id) {
    asio::ip::tcp::socket s(io);
    boost::system::error_code ec;
    s.connect({asio::ip::make_address("127.0.0.1"), cfg["nodes"][id]["tcp_port"].get<std::uint16_t>()}, ec);
    EXPECT_EQ(ec, asio::error::connection_refused) << "node " << id << "'s plain port accepted a connection";
  }
  const auto& launch = job.finish();
  ASSERT_EQ(launch.exit_code, 0) << launch.output;
  EXPECT_EQ(read_json(out + "/summary.json")["rounds"], 100);
  std::filesystem::remove_all(out);
}

TEST(RealMode, MultiHostRecipeRunsFromAConfigAndCollects) {
  const std::string dir = "/tmp/geotrain-test-multihost-" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/secret") << "multi-host-test-secret-0123456789\n";
  nlohmann::json cfg;
  cfg["scenario"] = source_path("scenarios/quickstart.json");
  cfg["sets"] = {R"(model={"kind":"softmax"})", R"(dataset={"kind":"synthetic"})", "stop.rounds=20"};
  cfg["secret_file"] = dir + "/secret";
  cfg["out"] = dir + "/out";
  const int base = 21000 + int(::getpid() % 5000);
  for (int i = 0; i < 7; ++i)
    cfg["nodes"].push_back({{"host", "127.0.0.1"}, {"tcp_port", base + i}, {"udp_port", base + i}});
  std::ofstream(dir + "/config.json") << cfg.dump(1);
  std::string cmd = "(";
  for (int i = 0; i < 7; ++i)
    cmd += testing::geotrain_bin() + " real --role " + std::to_string(i) + " --config " + dir + "/config.json > " +
           dir + "/" + std::to_string(i) + ".log 2>&1 & ";
  cmd += "wait)";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto r = run_geotrain("collect --config " + dir + "/config.json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto s = read_json(dir + "/out/summary.json");
  EXPECT_EQ(s["rounds"], 20);
  EXPECT_EQ(s["runtime"], "real");
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// Learners beyond the classifiers run in real mode from their shipped scenario files and train like the
// simulation: matrix factorisation on generated ratings (gradients, a metric to minimise) and k-means
// (sums and counts the global server's learner turns into centroids) and XGBoost-style trees (histograms up,
// splits down, the same trees as in the simulation).
class RealModeLearner : public ::testing::TestWithParam<const char*> {};

TEST_P(RealModeLearner, LaunchesFromItsScenarioAndMatchesTheSimulation) {
  const std::string name = GetParam();
  std::vector<std::string> sets = {R"(stop={"rounds":12})", "eval.every_rounds=6"};
  if (name == "mf") sets.push_back(R"(dataset={"kind":"ratings","users":60,"items":60,"train":4000,"test":500})");
  if (name == "kmeans" || name == "xgboost" || name == "random_forest" || name == "knn")
    sets.push_back(R"(dataset={"kind":"synthetic","features":16,"classes":4,"train":800,"test":200})");
  if (name == "kmeans") sets.push_back(R"(model={"kind":"kmeans","k":4})");
  if (name == "svm") {  // each worker's dual variables stay in its own process
    sets.push_back(R"(dataset={"kind":"synthetic","features":16,"classes":3,"train":1200,"test":300,"noise":3})");
    sets.push_back(R"(model={"kind":"svm","lambda":0.1})");
  }
  if (name == "xgboost")  // 1 + 3 x 3 rounds: it ends itself after its last tree
    sets.push_back(R"(model={"kind":"xgboost","depth":3,"iterations":3,"bins":16,"sketch_rows":256})");
  if (name == "random_forest")  // the same; the pulled forest empties after each group (a whole pull)
    sets.push_back(
        R"(model={"kind":"random_forest","depth":3,"iterations":3,"trees_per_round":2,"bins":16,"sketch_rows":256})");
  if (name == "knn")  // 200 test queries, 20 a round
    sets.push_back(R"(model={"kind":"knn","k":5,"query_batch":20})");
  const std::string scenario = testing::source_path("scenarios/algo-" + name + ".json");
  const std::string out = fresh_dir("launch-learner-" + name);
  const auto r = testing::run_geotrain("launch " + scenario + " --out " + out + " -q --timeout 120" + set_args(sets));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto real = testing::read_json(out + "/summary.json");
  const auto sim = summary_json(sim::run_simulation(load_scenario(scenario, sets)));
  const std::string primary = sim["metrics"]["primary"];
  EXPECT_EQ(real["metrics"]["primary"], primary);
  const bool trees = name == "xgboost" || name == "random_forest" || name == "knn";
  EXPECT_EQ(real["rounds"], trees ? 10 : 12);
  EXPECT_EQ(real["rounds"], sim["rounds"]);
  if (trees) {  // histograms sum exactly: the same trees, so every metric to the last bit
    EXPECT_EQ(real["metrics"]["values"], sim["metrics"]["values"]);
  } else if (primary != "test_accuracy") {
    EXPECT_TRUE(real["final_test_accuracy"].is_null());
  }
  const double s = sim["metrics"]["values"][primary]["final"], x = real["metrics"]["values"][primary]["final"];
  EXPECT_NEAR(x, s, 1e-3 * std::abs(s)) << name << ": real " << x << ", sim " << s;
  std::filesystem::remove_all(out);
}

INSTANTIATE_TEST_SUITE_P(Learners, RealModeLearner,
                         ::testing::Values("mf", "kmeans", "xgboost", "random_forest", "knn", "svm"));

}  // namespace
}  // namespace geotrain
