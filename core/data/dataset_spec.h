// A scenario's choice of dataset (its `dataset` object).
#pragma once
#include <string>
#include <vector>

#include "core/base/registry.h"

namespace geotrain {

struct DatasetSpec {
  std::string kind = "fashion-mnist";  // a name in core/data/dataset_registry.h
  std::string path;                    // IDX directory
  int train_samples = 0;               // 0 = all
  int test_samples = 0;                // 0 = all
  int skip_train = 0;                  // IDX: training samples skipped before the first used
  std::vector<int> keep_classes;       // IDX: only these classes, relabelled 0.. in this order (empty: all)
  // synthetic only
  int features = 16, classes = 4, synthetic_train = 2000, synthetic_test = 500;
  double noise = 1.0;
  NumericParams params;  // generated kinds (ratings, ranking, cartpole): their parameters, defaults filled in
  double param(const std::string& name) const { return params.at(name); }
};

}  // namespace geotrain
