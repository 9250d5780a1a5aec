#include "core/data/formats/holdout.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>

namespace geotrain {
namespace {

// The units `idx` (ascending) of d: columns, or whole queries for ranking.
Dataset units(const Dataset& d, const std::vector<int>& idx, const std::string& name) {
  Dataset out;
  out.name = name;
  out.kind = d.kind;
  out.classes = d.classes;
  std::vector<int> cols;
  if (d.kind == "ranking") {
    out.query_start.push_back(0);
    for (int q : idx) {
      for (int c = d.query_start[std::size_t(q)]; c < d.query_start[std::size_t(q) + 1]; ++c) cols.push_back(c);
      out.query_start.push_back(int(cols.size()));
    }
  } else {
    cols = idx;
  }
  out.x.resize(d.x.rows(), Eigen::Index(cols.size()));
  for (std::size_t k = 0; k < cols.size(); ++k) {
    out.x.col(Eigen::Index(k)) = d.x.col(cols[k]);
    if (!d.y.empty()) out.y.push_back(d.y[std::size_t(cols[k])]);
    if (!d.target.empty()) out.target.push_back(d.target[std::size_t(cols[k])]);
  }
  return out;
}

}  // namespace

TrainTest hold_out(Dataset all, double fraction, std::uint64_t seed) {
  const int n = all.size();
  const int n_test = int(std::lround(n * fraction));
  const char* unit = all.kind == "ranking" ? " queries" : " rows";
  if (n_test < 1 || n_test >= n)
    throw std::runtime_error(all.name + ": " + std::to_string(n) + unit + ": test_fraction " +
                             std::to_string(fraction) + " leaves no test or no training" + unit +
                             " (or give a test file)");
  std::vector<int> order(static_cast<std::size_t>(n));
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(seed ^ 0x7e57da7aull);
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int> test(order.begin(), order.begin() + n_test), train(order.begin() + n_test, order.end());
  std::sort(test.begin(), test.end());
  std::sort(train.begin(), train.end());
  TrainTest tt;
  tt.test = units(all, test, all.name + " (held-out part)");
  tt.train = units(all, train, all.name);
  return tt;
}

}  // namespace geotrain
