// Helpers shared by the tests: paths into the source tree, a small synthetic
// scenario, running the geotrain binary.
#pragma once
#include <string>
#include <vector>

#include "core/config/scenario.h"
#include "core/runtime/trace.h"

namespace geotrain::testing {

inline std::string source_path(const std::string& rel) { return std::string(GEOTRAIN_SOURCE_DIR) + "/" + rel; }

// A fast scenario: the quickstart topology with a small synthetic dataset.
inline Scenario small_scenario(const std::string& architecture, std::vector<std::string> extra_sets = {}) {
  std::vector<std::string> sets = {
      "architecture=" + architecture,
      R"(model={"kind":"mlp","hidden":[16]})",
      R"(dataset={"kind":"synthetic","features":32,"classes":4,"train":2000,"test":400})",
      "stop.rounds=30",
      "eval.every_rounds=10",
      "batch_size=32",
  };
  sets.insert(sets.end(), extra_sets.begin(), extra_sets.end());
  return load_scenario(source_path("scenarios/quickstart.json"), sets);
}

// Every protocol milestone the roles report, in order.
struct TraceEvent {
  TimeNs t;
  NodeId node;
  TraceKind kind;
  std::int64_t round;
};
class TraceRecorder : public Tracer {
 public:
  void record(TimeNs t, NodeId node, TraceKind kind, std::int64_t round) override {
    events.push_back({t, node, kind, round});
  }
  std::vector<TraceEvent> events;
};

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

// The geotrain binary under test: this build's, unless GEOTRAIN_TEST_BIN names
// another (e.g. an older build, to show a test fails without a fix).
std::string geotrain_bin();

CommandResult run_geotrain(const std::string& args);

}  // namespace geotrain::testing
