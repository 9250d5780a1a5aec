// geotrain regress: re-runs the reference scenarios (scenarios/regress/*.json)
// in simulation and compares each summary with its committed expectation
// (<name>.expected.json): deterministic counters exactly, accuracies and losses
// within the tolerance stored beside each value. --update rewrites the values
// (keeping tolerances) when a change is deliberate.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace geotrain::cli {

struct MetricCheck {
  std::string metric;
  nlohmann::json expected, actual;
  double tolerance = 0;
  bool relative = false;
  bool ok = true;
};

// Compares a summary against an expectation's "metrics" object.
std::vector<MetricCheck> compare_summary(const nlohmann::json& expected_metrics, const nlohmann::json& summary);
// A fresh expectation for `summary` (default tolerances, or those of `previous`).
nlohmann::json make_expectation(const nlohmann::json& summary, const nlohmann::json& previous);

struct RegressOptions {
  std::string dir;
  bool update = false;
  std::vector<std::string> sets;  // applied to every scenario (to try a changed default)
};
// Returns the number of scenarios that failed; prints a table per scenario.
int run_regress(const RegressOptions& opt);

}  // namespace geotrain::cli
