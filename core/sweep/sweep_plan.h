// A sweep: a base scenario and axes over its JSON paths, expanded into points.
//   grid  : {"path": [v1, v2, ...], ...}  -> the cartesian product
//   zip   : {"path": [...], ...}          -> lists of equal length, walked together
//   seeds : [1, 2, ...] or "repeats": n    -> every point once per seed (1..n)
// Points are numbered in a fixed order (grid, then zip, then seed, last varying
// fastest), so shards and resumed runs agree on what point i is.
// Schema: scenarios/sweep.schema.json.
#pragma once
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace geotrain {

struct SweepPoint {
  int index = 0;
  std::string id;                                              // "p0007"
  std::vector<std::pair<std::string, nlohmann::json>> values;  // axis path -> value
  std::uint64_t seed = 1;
  std::vector<std::string> sets;  // --set assignments that make this point
};

// Sweeps larger than this are refused (each point is a process and a directory).
constexpr std::size_t kMaxSweepPoints = 100000;

struct SweepPlan {
  std::string file, name, base_scenario, runtime = "sim";
  std::vector<std::string> axes;  // axis paths in column order
  std::vector<SweepPoint> points;
};

// Loads and expands a sweep file, then checks every point's scenario loads
// (ConfigError names the point and the bad value).
SweepPlan load_sweep(const std::string& path);

}  // namespace geotrain
