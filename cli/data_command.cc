// geotrain data: what a scenario's dataset holds, and what each data centre
// trains on, before anything runs.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "api/runs.h"
#include "api/scenarios.h"
#include "cli/commands.h"
#include "cli/guarded.h"

namespace geotrain::cli {
namespace {

std::string count(std::int64_t n) {
  std::string s = std::to_string(n);
  for (int i = int(s.size()) - 3; i > 0; i -= 3) s.insert(std::size_t(i), ",");
  return s;
}

double zero_share(const Dataset& d) {
  if (d.x.size() == 0) return 0;
  return double((d.x.array() == 0.0f).count()) / double(d.x.size());
}

// The labels, targets or grades of the units `cols` (all when empty) of d.
std::string outcomes(const Dataset& d, const std::vector<int>& cols) {
  const auto each = [&](auto fn) {
    if (cols.empty())
      for (int c = 0; c < int(d.x.cols()); ++c) fn(c);
    else
      for (int c : cols) fn(c);
  };
  char buf[160];
  if (d.kind == "labelled") {
    std::vector<std::int64_t> n(std::size_t(std::max(d.classes, 1)), 0);
    std::int64_t all = 0;
    each([&](int c) { ++n[std::size_t(d.y[std::size_t(c)])], ++all; });
    std::string s = std::to_string(d.classes) + " classes:";
    for (std::size_t k = 0; k < n.size() && k < 20; ++k) {
      std::snprintf(buf, sizeof buf, " %zu %.0f%%", k, all ? 100.0 * double(n[k]) / double(all) : 0.0);
      s += buf;
    }
    return s + (n.size() > 20 ? " ..." : "");
  }
  if (d.target.empty()) return d.kind;
  double lo = 1e300, hi = -1e300, sum = 0;
  std::int64_t m = 0;
  each([&](int c) {
    const double v = d.target[std::size_t(c)];
    lo = std::min(lo, v), hi = std::max(hi, v), sum += v, ++m;
  });
  std::snprintf(buf, sizeof buf, "%s %s %.4g to %.4g, mean %.4g", d.kind.c_str(),
                d.kind == "ranking" ? "grades" : "target", lo, hi, m ? sum / double(m) : 0.0);
  return buf;
}

// Columns of a ranking set's queries (a shard holds queries).
std::vector<int> columns_of(const Dataset& d, const std::vector<int>& units) {
  if (d.kind != "ranking") return units;
  std::vector<int> cols;
  for (int q : units)
    for (int c = d.query_start[std::size_t(q)]; c < d.query_start[std::size_t(q) + 1]; ++c) cols.push_back(c);
  return cols;
}

void describe(const Scenario& sc) {
  const TrainingJob job(sc);
  const TrainTest& d = job.data();
  const char* unit = d.train.kind == "ranking" ? "queries" : "rows";
  std::printf("dataset %s%s: %s data\n", sc.dataset.kind.c_str(),
              sc.dataset.per_dc.empty() ? "" : " (each data centre's own files)", d.train.kind.c_str());
  std::printf("  train  %s %s (%s columns) x %d features, %.1f%% zeros; %s\n", count(d.train.size()).c_str(), unit,
              count(d.train.x.cols()).c_str(), d.train.features(), 100 * zero_share(d.train),
              outcomes(d.train, {}).c_str());
  std::printf("  test   %s %s; %s\n", count(d.test.size()).c_str(), unit, outcomes(d.test, {}).c_str());
  // What each DC trains on: its workers' shards.
  std::map<int, std::vector<int>> units_of_dc;
  std::size_t w = 0;
  for (const NodeSpec& n : job.deployment().nodes) {
    if (n.role != Role::kWorker) continue;
    auto& u = units_of_dc[n.dc];
    if (w < job.shards().size()) u.insert(u.end(), job.shards()[w].begin(), job.shards()[w].end());
    ++w;
  }
  std::printf("what each data centre trains on (%s):\n",
              sc.dataset.per_dc.empty() ? ("partition " + sc.partition.kind + " of the job's rows").c_str()
                                        : "its own files; its test rows its own");
  for (const auto& [dc, units] : units_of_dc) {
    const std::string& name = sc.topology.dcs[std::size_t(dc)].name;
    std::string test;
    const auto& dcs = job.data_dcs();
    const auto it = std::find(dcs.begin(), dcs.end(), name);
    if (it != dcs.end()) test = ", test " + count(job.dc_tests()[std::size_t(it - dcs.begin())].size()) + " " + unit;
    std::printf("  %-12s %s %s%s; %s\n", name.c_str(), count(std::int64_t(units.size())).c_str(), unit, test.c_str(),
                outcomes(d.train, columns_of(d.train, units)).c_str());
  }
}

}  // namespace

void add_data(CLI::App& app) {
  auto scenario = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  CLI::App* c = app.add_subcommand("data", "Show what a scenario's dataset holds and what each data centre trains on");
  c->footer(
      "Loads the scenario's dataset as a run would (files, or each data centre's own files under\n"
      "dataset.per_dc) and prints its rows, features, share of zero values, and its labels (each\n"
      "class's share), targets or relevance grades; then, for every data centre with workers, the\n"
      "rows it trains on (its files, or its part of the partition) and their label mix: where one DC's\n"
      "data differs from the others. Nothing is trained. Exit 2 on bad input, naming the file, line\n"
      "and column, or the JSON path.\n"
      "Example: geotrain data scenarios/quickstart.json --set partition.kind=dirichlet");
  c->add_option("scenario", *scenario, "Scenario JSON file")->required();
  c->add_option("-s,--set", *sets, "Override a scenario value (as in geotrain sim). Repeatable.");
  c->callback([scenario, sets] {
    guarded([&] {
      describe(load_scenario(*scenario, *sets));
      return 0;
    });
  });
}

}  // namespace geotrain::cli
