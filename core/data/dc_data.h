// A job's data when each data centre holds its own files (DatasetSpec::per_dc):
// each DC's sets loaded from its files alone, checked to agree on the
// feature space and the labels, its training rows partitioned among its own
// workers only, and the sets joined for the job's evaluation. Evaluating on
// the joined test sets merges every metric the way it merges itself (accuracy
// and losses weighted by rows, NDCG by queries, RMSE by squared errors).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/data/dataset_spec.h"
#include "core/data/partition.h"

namespace geotrain {

struct DcData {
  TrainTest all;                         // every DC's sets, DC after DC
  std::vector<std::vector<int>> shards;  // one per worker, DC-major (indices into all.train)
  std::vector<std::string> dcs;          // the DCs, in topology order
  std::vector<Dataset> tests;            // each DC's own test set
};

// `dcs` and `workers`: the topology's DCs and their workers, in order; a DC
// with workers must have files. Throws std::runtime_error naming the DCs that
// disagree (features, kind) or a DC without files.
DcData load_dc_data(const DatasetSpec& spec, const PartitionSpec& partition_spec, const std::vector<std::string>& dcs,
                    const std::vector<int>& workers, std::uint64_t seed);

// The sets one after another (the same kind and features): columns, labels
// or targets, queries.
Dataset join_sets(const std::vector<const Dataset*>& parts, const std::string& name);

}  // namespace geotrain
