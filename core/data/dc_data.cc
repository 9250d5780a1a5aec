#include "core/data/dc_data.h"

#include <algorithm>
#include <stdexcept>

#include "core/data/dataset_registry.h"

namespace geotrain {

Dataset join_sets(const std::vector<const Dataset*>& parts, const std::string& name) {
  Dataset out;
  out.name = name;
  out.kind = parts.front()->kind;
  Eigen::Index cols = 0;
  for (const Dataset* d : parts) {
    cols += d->x.cols();
    out.classes = std::max(out.classes, d->classes);
    out.users = std::max(out.users, d->users);
    out.items = std::max(out.items, d->items);
  }
  out.x.resize(parts.front()->x.rows(), cols);
  Eigen::Index at = 0;
  if (out.kind == "ranking") out.query_start.push_back(0);
  for (const Dataset* d : parts) {
    out.x.middleCols(at, d->x.cols()) = d->x;
    out.y.insert(out.y.end(), d->y.begin(), d->y.end());
    out.target.insert(out.target.end(), d->target.begin(), d->target.end());
    if (out.kind == "ranking")
      for (std::size_t q = 1; q < d->query_start.size(); ++q) out.query_start.push_back(int(at) + d->query_start[q]);
    at += d->x.cols();
  }
  return out;
}

DcData load_dc_data(const DatasetSpec& spec, const PartitionSpec& partition_spec, const std::vector<std::string>& dcs,
                    const std::vector<int>& workers, std::uint64_t seed) {
  const DatasetInfo* info = find_entry(dataset_registry(), spec.kind);
  if (!info) throw std::invalid_argument("unknown dataset '" + spec.kind + "'");
  std::vector<TrainTest> parts;
  DcData out;
  for (std::size_t i = 0; i < dcs.size(); ++i) {
    const auto f = std::find_if(spec.per_dc.begin(), spec.per_dc.end(), [&](const auto& e) { return e.dc == dcs[i]; });
    if (f == spec.per_dc.end()) {
      if (workers[i] > 0) throw std::runtime_error("per_dc: data centre " + dcs[i] + " has workers but no files");
      continue;
    }
    parts.push_back(info->load(spec.for_dc(*f), seed));
    out.dcs.push_back(dcs[i]);
  }
  // Agreement: one feature space and one kind of data; the classes are the
  // union (a DC need not hold every class), every DC's sets sized to it.
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const Dataset& a = parts[0].train;
    const Dataset& b = parts[i].train;
    if (a.kind != b.kind || a.features() != b.features())
      throw std::runtime_error("per_dc: the data centres disagree: " + out.dcs[0] + " holds " + a.kind + " data of " +
                               std::to_string(a.features()) + " features, " + out.dcs[i] + " " + b.kind + " data of " +
                               std::to_string(b.features()));
  }
  int classes = 0;
  for (const auto& p : parts) classes = std::max({classes, p.train.classes, p.test.classes});
  for (auto& p : parts) p.train.classes = p.test.classes = classes;
  std::vector<const Dataset*> trains, tests;
  int start = 0;
  std::size_t part = 0;
  for (std::size_t i = 0; i < dcs.size(); ++i) {
    if (part >= out.dcs.size() || out.dcs[part] != dcs[i]) continue;  // a DC without files, and without workers
    const Dataset& train = parts[part].train;
    if (workers[i] > train.size())
      throw std::runtime_error("per_dc: data centre " + dcs[i] + " has " + std::to_string(workers[i]) +
                               " workers but " + std::to_string(train.size()) + " training rows");
    // Its rows among its own workers only, drawn from a stream of its own.
    const auto shards = partition(train, partition_spec, {workers[i]}, seed ^ (0x9e3779b97f4a7c15ull * (i + 1)));
    for (auto s : shards) {  // indices of units: rows, or queries for ranking
      for (int& k : s) k += start;
      out.shards.push_back(std::move(s));
    }
    start += train.size();
    trains.push_back(&train);
    tests.push_back(&parts[part].test);
    ++part;
  }
  out.all.train = join_sets(trains, spec.kind + " (per data centre)");
  out.all.test = join_sets(tests, spec.kind + " test (per data centre)");
  for (auto& p : parts) out.tests.push_back(std::move(p.test));
  return out;
}

}  // namespace geotrain
