#include "core/sweep/sweep_plan.h"

#include <cstdio>

#include "core/config/scenario.h"
#include "core/json/json_reader.h"

namespace geotrain {
namespace {

std::string assignment(const std::string& path, const nlohmann::json& v) { return path + "=" + v.dump(); }

}  // namespace

SweepPlan load_sweep(const std::string& path) {
  const nlohmann::json j = load_json_file(path);
  JsonReader r(j, path, "", nullptr);
  SweepPlan plan;
  plan.file = path;
  r.raw("$schema");
  plan.name = r.string("name", {});
  plan.base_scenario = r.string("base", {});
  plan.base_scenario = resolve_path(path, plan.base_scenario);
  plan.runtime = r.string("runtime", "sim", {"sim", "real"});
  const std::vector<std::string> common = r.strings("sets", "\"path=value\" string");
  // Axes: each a path and its list of values.
  using Axis = std::pair<std::string, std::vector<nlohmann::json>>;
  auto read_axes = [&](const char* key) {
    std::vector<Axis> axes;
    const auto& obj = r.raw(key);
    if (obj.is_null()) return axes;
    if (!obj.is_object()) r.fail(key, "expected an object of \"json.path\": [values...]");
    for (const auto& [p, vals] : obj.items()) {
      if (!vals.is_array() || vals.empty())
        throw ConfigError(path, r.pointer(key) + "/" + p, "expected a non-empty array of values");
      axes.push_back({p, std::vector<nlohmann::json>(vals.begin(), vals.end())});
    }
    return axes;
  };
  const std::vector<Axis> grid = read_axes("grid");
  const std::vector<Axis> zip = read_axes("zip");
  // One path, one source of values: a path in both grid and zip, or a seed axis
  // beside seeds/repeats, would be resolved silently by whichever comes last.
  for (const auto& z : zip)
    for (const auto& g : grid)
      if (z.first == g.first)
        throw ConfigError(path, r.pointer("zip") + "/" + z.first,
                          "\"" + z.first + "\" is also a grid axis; give it once");
  const bool seed_axis_given = r.has("seeds") || r.has("repeats");
  for (const auto* axes : {&grid, &zip})
    for (const auto& a : *axes)
      if (a.first == "seed" && seed_axis_given)
        throw ConfigError(path, r.pointer(axes == &grid ? "grid" : "zip") + "/seed",
                          "the seed is swept by \"seeds\"/\"repeats\"; do not also give it as an axis");
  std::size_t zip_len = zip.empty() ? 1 : zip[0].second.size();
  for (const auto& a : zip)
    if (a.second.size() != zip_len)
      throw ConfigError(path, r.pointer("zip") + "/" + a.first,
                        "zipped lists must have the same length (" + std::to_string(zip_len) + ")");
  std::vector<std::uint64_t> seeds;
  if (r.has("seeds")) {
    for (auto s : r.integers("seeds", 0, std::int64_t(1) << 53)) seeds.push_back(std::uint64_t(s));
    if (seeds.empty()) r.fail("seeds", "expected at least one seed");
  }
  const std::int64_t repeats = r.integer("repeats", 0, 0, 100000);
  if (!seeds.empty() && repeats > 0) r.fail("repeats", "give seeds or repeats, not both");
  for (std::int64_t i = 1; i <= repeats; ++i) seeds.push_back(std::uint64_t(i));
  const bool vary_seed = !seeds.empty();
  if (!vary_seed) seeds.push_back(0);  // the base scenario's own seed
  r.finish();

  for (const auto& a : grid) plan.axes.push_back(a.first);
  for (const auto& a : zip) plan.axes.push_back(a.first);

  // Count before enumerating (a 10^12-point grid must be refused, not built).
  std::size_t grid_count = 1;
  double total = double(zip_len) * double(seeds.size());
  for (const auto& a : grid) {
    grid_count *= a.second.size();
    total *= double(a.second.size());
    if (total > double(kMaxSweepPoints)) break;
  }
  if (total > double(kMaxSweepPoints))
    throw ConfigError(path, "",
                      "the sweep has more than " + std::to_string(kMaxSweepPoints) +
                          " points (grid sizes x zip length x seeds); split it into several sweep files");
  for (std::size_t g = 0; g < grid_count; ++g) {
    for (std::size_t z = 0; z < zip_len; ++z) {
      for (std::uint64_t seed : seeds) {
        SweepPoint p;
        p.index = int(plan.points.size());
        char id[16];
        std::snprintf(id, sizeof id, "p%04d", p.index);
        p.id = id;
        p.sets = common;
        std::size_t rest = g;
        std::vector<std::pair<std::string, nlohmann::json>> gv(grid.size());
        for (std::size_t k = grid.size(); k-- > 0;) {  // last axis varies fastest
          gv[k] = {grid[k].first, grid[k].second[rest % grid[k].second.size()]};
          rest /= grid[k].second.size();
        }
        for (auto& v : gv) p.values.push_back(v);
        for (const auto& a : zip) p.values.push_back({a.first, a.second[z]});
        for (const auto& [k, v] : p.values) p.sets.push_back(assignment(k, v));
        if (vary_seed) {
          p.seed = seed;
          p.sets.push_back("seed=" + std::to_string(seed));
        }
        plan.points.push_back(std::move(p));
      }
    }
  }
  // Every point must be a valid scenario before anything runs.
  for (auto& p : plan.points) {
    try {
      const Scenario sc = load_scenario(plan.base_scenario, p.sets);
      if (!vary_seed) p.seed = sc.seed;
    } catch (const ConfigError& e) {
      throw ConfigError(path, "", "point " + p.id + " is not a valid scenario: " + e.what());
    }
  }
  return plan;
}

}  // namespace geotrain
