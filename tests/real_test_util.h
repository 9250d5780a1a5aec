// Helpers for the real-mode tests (processes on loopback through `geotrain launch`).
#pragma once
#include <boost/asio.hpp>
#include <chrono>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "tests/test_util.h"

namespace geotrain::testing {

// A small scenario with a short WAN latency so real runs take seconds.
std::vector<std::string> small_sets(int rounds);
// " --set 'a' --set 'b'" for a command line.
std::string set_args(const std::vector<std::string>& sets);
nlohmann::json read_json(const std::string& path);
// A summary as text, less its wall time: equal for two runs of one scenario and seed in ns-3.
std::string without_wall_time(nlohmann::json summary);
// /tmp/geotrain-test-NAME-PID, removed if it exists.
std::string fresh_dir(const std::string& name);
// `geotrain launch FILE` with `sets` in a fresh directory named after `name`;
// its summary.json (null, with a test failure naming the output, when the launch fails).
nlohmann::json launch_summary(const std::string& file, const std::vector<std::string>& sets, const std::string& name);

// Connects to `port` and writes `bytes`, then closes.
void hit(boost::asio::io_context& io, std::uint16_t port, const std::vector<std::uint8_t>& bytes);
// Connects until something accepts on `port` (a process may take a while to
// start on a busy machine); false after `limit`.
bool wait_for_listener(boost::asio::io_context& io, std::uint16_t port, std::chrono::seconds limit);

// Every live (not zombie) process whose command line contains `needle`
// (arguments separated by NUL bytes, as in /proc/PID/cmdline).
std::vector<int> processes_with(const std::string& needle);
// The pid of the `geotrain real --role id --config config` process, or -1.
int node_pid(const std::string& config, int id);

// `geotrain launch` of the quickstart on a thread of its own, for tests that act
// on the running job. Joined however the test ends: a failed check reports
// instead of std::terminate-ing the binary with the thread still running.
class BackgroundLaunch {
 public:
  BackgroundLaunch(std::string out, const std::string& args);
  ~BackgroundLaunch();
  // The deployment config, once the launcher has written it (whole: it is renamed into place).
  nlohmann::json config() const;
  const CommandResult& finish();

 private:
  std::string out_;
  CommandResult result_;
  std::thread thread_;  // last: starts once the members it writes exist
};

}  // namespace geotrain::testing
