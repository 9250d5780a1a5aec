#include "tests/real_test_util.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/json/json_reader.h"

namespace geotrain::testing {

namespace asio = boost::asio;

std::vector<std::string> small_sets(int rounds) {
  return {R"(model={"kind":"mlp","hidden":[16]})",
          R"(dataset={"kind":"synthetic","features":32,"classes":4,"train":2000,"test":400})",
          "stop.rounds=" + std::to_string(rounds), "eval.every_rounds=10", "topology.wan.default.latency_ms=5"};
}

std::string without_wall_time(nlohmann::json summary) {
  summary.erase("wall_time_s");
  return summary.dump();
}

nlohmann::json launch_summary(const std::string& file, const std::vector<std::string>& sets, const std::string& name) {
  const std::string out = fresh_dir(name);
  const auto r = run_geotrain("launch " + file + " --out " + out + " -q --timeout 300" + set_args(sets));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  nlohmann::json summary = r.exit_code == 0 ? read_json(out + "/summary.json") : nlohmann::json();
  std::filesystem::remove_all(out);
  return summary;
}

std::string set_args(const std::vector<std::string>& sets) {
  std::string s;
  for (const auto& x : sets) s += " --set '" + x + "'";
  return s;
}

nlohmann::json read_json(const std::string& p) { return load_json_file(p); }

std::string fresh_dir(const std::string& name) {
  const std::string d = "/tmp/geotrain-test-" + name + "-" + std::to_string(::getpid());
  std::filesystem::remove_all(d);
  return d;
}

void hit(asio::io_context& io, std::uint16_t port, const std::vector<std::uint8_t>& bytes) {
  asio::ip::tcp::socket s(io);
  boost::system::error_code ec;
  s.connect({asio::ip::make_address("127.0.0.1"), port}, ec);
  if (ec) throw std::runtime_error("connect failed: " + ec.message());
  asio::write(s, asio::buffer(bytes), ec);
  s.close(ec);
}

bool wait_for_listener(asio::io_context& io, std::uint16_t port, std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  for (;;) {
    asio::ip::tcp::socket s(io);
    boost::system::error_code ec;
    s.connect({asio::ip::make_address("127.0.0.1"), port}, ec);
    if (!ec) return true;
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

std::vector<int> processes_with(const std::string& needle) {
  std::vector<int> pids;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream in(e.path() / "cmdline"), st(e.path() / "stat");
    const std::string cmd((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string stat((std::istreambuf_iterator<char>(st)), std::istreambuf_iterator<char>());
    if (stat.find(") Z ") == std::string::npos && cmd.find(needle) != std::string::npos)
      pids.push_back(std::stoi(name));
  }
  return pids;
}

int node_pid(const std::string& config, int id) {
  const std::string want =
      std::string("real") + '\0' + "--role" + '\0' + std::to_string(id) + '\0' + "--config" + '\0' + config + '\0';
  const std::vector<int> pids = processes_with(want);
  return pids.empty() ? -1 : pids.front();
}

BackgroundLaunch::BackgroundLaunch(std::string out, const std::string& args)
    : out_(std::move(out)), thread_([this, args] {
        result_ = run_geotrain("launch " + source_path("scenarios/quickstart.json") + " --out " + out_ + args);
      }) {}

BackgroundLaunch::~BackgroundLaunch() {
  if (thread_.joinable()) thread_.join();
}

nlohmann::json BackgroundLaunch::config() const {
  const std::string path = out_ + "/launch/config.json";
  for (int i = 0; i < 1500 && !std::filesystem::exists(path); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  return read_json(path);
}

const CommandResult& BackgroundLaunch::finish() {
  thread_.join();
  return result_;
}

}  // namespace geotrain::testing
