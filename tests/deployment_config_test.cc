// geotrain validate on real-mode deployment configs: a good one prints which
// role each node id runs; bad ones exit 2 with one line naming the JSON path.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/test_util.h"

namespace geotrain {
namespace {

using testing::run_geotrain;

class DeploymentConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/geotrain-test-deployment-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir_);
    cfg_["scenario"] = testing::source_path("scenarios/quickstart.json");
    cfg_["secret_file"] = dir_ + "/secret";
    cfg_["out"] = dir_ + "/out";
    for (int i = 0; i < 7; ++i)
      cfg_["nodes"].push_back({{"host", "10.0.0.1"}, {"tcp_port", 24000 + i}, {"udp_port", 24000 + i}});
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  testing::CommandResult validate() {
    std::ofstream(dir_ + "/config.json") << cfg_.dump(1);
    return run_geotrain("validate " + dir_ + "/config.json");
  }
  void expect_error(const std::string& text) {
    const auto r = validate();
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find(dir_ + "/config.json: " + text), std::string::npos) << r.output;
  }
  std::string dir_;
  nlohmann::json cfg_;
};

TEST_F(DeploymentConfig, AGoodOneListsTheRoleOfEveryNode) {
  const auto r = validate();
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("node 6  dc-b/worker1"), std::string::npos) << r.output;
}

TEST_F(DeploymentConfig, TooFewEndpointsForTheScenario) {
  cfg_["nodes"].erase(6);
  expect_error("/nodes: expected 7 endpoints, one per node of scenario \"quickstart\" (hips), got 6");
}

TEST_F(DeploymentConfig, TlsNeedsATlsPortOnEveryNodeAndReadableFiles) {
  std::ofstream(dir_ + "/cert.pem") << "x";
  cfg_["tls"] = {{"links", "wan"},
                 {"cert_file", dir_ + "/cert.pem"},
                 {"key_file", dir_ + "/cert.pem"},
                 {"ca_file", dir_ + "/cert.pem"}};
  expect_error("/nodes/0/tls_port: expected a port");
  cfg_["tls"]["ca_file"] = dir_ + "/missing.pem";
  expect_error("/tls/ca_file: cannot read file");
  cfg_["tls"]["ca_file"] = dir_ + "/cert.pem";
  cfg_["tls"]["links"] = "lan";
  expect_error("/tls/links:");
}

TEST_F(DeploymentConfig, UnknownKeysAndBadPortsAreNamed) {
  cfg_["heartbeat"] = 1;
  expect_error("/heartbeat:");
  cfg_.erase("heartbeat");
  cfg_["nodes"][2]["tcp_port"] = 70000;
  expect_error("/nodes/2/tcp_port:");
}

}  // namespace
}  // namespace geotrain
