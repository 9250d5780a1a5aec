// Splits a training set across data centres and workers.
//  iid       : a seeded shuffle cut into equal parts.
//  by_class  : sort by label, cut into units*classes_per_unit shards, deal
//              classes_per_unit shards to each unit (McMahan et al. 2017).
//  dirichlet : per class, proportions over units drawn from Dir(alpha)
//              (small alpha = highly skewed; large alpha ~ iid).
// `level` says what the units are: every worker, or every DC (then each DC's
// part is split iid among its workers). Every sample lands in exactly one
// shard; no shard is empty (a sample is moved from the largest if needed).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace geotrain {

struct PartitionSpec {
  std::string kind = "iid";      // iid | by_class | dirichlet
  std::string level = "worker";  // worker | dc
  int classes_per_unit = 2;
  double alpha = 0.5;
};

// workers_per_dc[i] = number of workers in DC i (DCs with 0 workers get nothing).
// Result: one index list per worker, DC-major order.
std::vector<std::vector<int>> partition(const Dataset& d, const PartitionSpec& spec,
                                        const std::vector<int>& workers_per_dc, std::uint64_t seed);

}  // namespace geotrain
