// The registry of datasets: each reads its parameters from the scenario's
// `dataset` object and loads (or generates) the train and test sets.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/base/registry.h"
#include "core/data/dataset.h"
#include "core/data/dataset_spec.h"
#include "core/json/json_reader.h"

namespace geotrain {

struct DatasetInfo {
  ComponentDoc doc;
  std::string data_kind;  // the Dataset::kind it produces (labelled, ratings, ranking, environment)
  std::function<void(JsonReader& r, DatasetSpec& d)> read;  // its own keys, besides "kind"
  // Throws std::runtime_error (files missing or malformed).
  std::function<TrainTest(const DatasetSpec& d, std::uint64_t seed)> load;
};

const std::vector<DatasetInfo>& dataset_registry();
// The Dataset::kind a spec loads: its entry's, or what its task makes (a file's).
std::string data_kind_of(const DatasetSpec& d);
// The datasets read from files: csv, svmlight, npy (core/data/file_datasets.cc).
std::vector<DatasetInfo> file_datasets();

}  // namespace geotrain
