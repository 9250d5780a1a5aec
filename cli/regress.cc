#include "cli/regress.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "api/platform.h"
#include "api/runs.h"
#include "api/scenarios.h"

namespace geotrain::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

struct Default {
  const char* metric;
  double tolerance;
  bool relative;
};
// Counters the simulation determines exactly, then learning outcomes.
const Default kDefaults[] = {
    {"rounds", 0, false},
    {"worker_steps", 0, false},
    {"bytes.wan", 0, false},
    {"bytes.lan", 0, false},
    {"events", 0, false},
    {"sim_time_s", 1e-9, true},
    {"final_test_accuracy", 0.02, false},
    {"final_loss", 0.1, true},
    {"time_to_target_s", 0.1, true},
};

json lookup(const json& summary, const std::string& metric) {
  const json* j = &summary;
  std::size_t start = 0;
  for (;;) {
    const auto dot = metric.find('.', start);
    const std::string key = metric.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (!j->is_object() || !j->contains(key)) return nullptr;
    j = &(*j)[key];
    if (dot == std::string::npos) return *j;
    start = dot + 1;
  }
}

std::string show(const json& v) {
  if (v.is_number_float()) {
    char b[32];
    std::snprintf(b, sizeof b, "%.6g", v.get<double>());
    return b;
  }
  return v.dump();
}

}  // namespace

std::vector<MetricCheck> compare_summary(const json& expected_metrics, const json& summary) {
  std::vector<MetricCheck> out;
  for (const auto& [metric, e] : expected_metrics.items()) {
    MetricCheck c;
    c.metric = metric;
    c.expected = e.at("expected");
    c.tolerance = e.value("tolerance", 0.0);
    c.relative = e.value("relative", false);
    c.actual = lookup(summary, metric);
    if (c.expected.is_null() || c.actual.is_null()) {
      c.ok = c.expected.is_null() == c.actual.is_null();
    } else {
      const double x = c.expected.get<double>(), y = c.actual.get<double>();
      const double allowed = c.relative ? c.tolerance * std::fabs(x) : c.tolerance;
      c.ok = std::fabs(y - x) <= allowed;
    }
    out.push_back(c);
  }
  return out;
}

json make_expectation(const json& summary, const json& previous) {
  json m = json::object();
  for (const auto& d : kDefaults) {
    json entry = {{"expected", lookup(summary, d.metric)}, {"tolerance", d.tolerance}, {"relative", d.relative}};
    if (previous.contains(d.metric)) {  // keep a tolerance someone chose
      entry["tolerance"] = previous[d.metric].value("tolerance", d.tolerance);
      entry["relative"] = previous[d.metric].value("relative", d.relative);
    }
    m[d.metric] = entry;
  }
  return m;
}

int run_regress(const RegressOptions& opt) {
  std::error_code ec;
  if (!fs::is_directory(opt.dir, ec))
    throw ConfigError(opt.dir, "", fs::exists(opt.dir, ec) ? "--dir: not a directory" : "--dir: no such directory");
  std::vector<fs::path> scenarios;
  for (const auto& e : fs::directory_iterator(opt.dir)) {
    const std::string n = e.path().filename().string();
    if (e.path().extension() == ".json" && n.find(".expected.") == std::string::npos) scenarios.push_back(e.path());
  }
  std::sort(scenarios.begin(), scenarios.end());
  if (scenarios.empty()) throw ConfigError(opt.dir, "", "no reference scenarios (*.json) in this directory");
  int failed = 0;
  for (const auto& path : scenarios) {
    const std::string expect_path = path.parent_path().string() + "/" + path.stem().string() + ".expected.json";
    const Scenario sc = load_scenario(path.string(), opt.sets);
    sim::SimOptions run;
    run.threads = sim::ComputePool::all_cores();  // the same results as one thread, sooner
    const json summary = summary_json(sim::run_simulation(sc, run));
    json previous;
    if (fs::exists(expect_path)) previous = load_json_file(expect_path);
    if (opt.update) {
      json e = {{"scenario", path.filename().string()},
                {"note", "written by geotrain regress --update; tolerances may be edited by hand"},
                {"metrics", make_expectation(summary, previous.is_object() ? previous.value("metrics", json::object())
                                                                           : json::object())}};
      write_file_atomically(expect_path, e.dump(2) + "\n");
      std::printf("%s: expectations written to %s\n", path.filename().c_str(), expect_path.c_str());
      continue;
    }
    if (previous.is_null())
      throw ConfigError(expect_path, "", "missing; create it deliberately with geotrain regress --update");
    const auto checks = compare_summary(previous.at("metrics"), summary);
    bool ok = true;
    for (const auto& c : checks) ok = ok && c.ok;
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", path.filename().c_str());
    if (!ok) {
      ++failed;
      std::printf("  %-22s %-18s %-18s %-14s\n", "metric", "expected", "actual", "tolerance");
      for (const auto& c : checks)
        std::printf(
            "%s %-22s %-18s %-18s %-14s\n", c.ok ? "   " : "  !", c.metric.c_str(), show(c.expected).c_str(),
            show(c.actual).c_str(),
            (c.tolerance == 0 ? std::string("exact") : show(c.tolerance) + (c.relative ? " rel" : " abs")).c_str());
    }
  }
  if (!opt.update)
    std::printf("%d of %zu reference scenarios %s\n", failed ? failed : int(scenarios.size()), scenarios.size(),
                failed ? "moved beyond tolerance" : "match");
  return failed;
}

}  // namespace geotrain::cli
