// A scenario's choice of dataset (its `dataset` object).
#pragma once
#include <string>
#include <vector>

#include "core/base/registry.h"
#include "core/data/formats/csv_format.h"
#include "core/data/formats/npy_format.h"
#include "core/data/formats/svmlight_format.h"

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
  // Files (csv, svmlight, npy): the training and test files (resolved; test
  // empty: test_fraction of the training rows held out), each format's
  // options, and the kind of data the task makes (labelled, regression, ranking).
  std::string train_file, test_file;
  double test_fraction = 0.2;
  CsvOptions csv;
  SvmlightOptions svmlight;
  NpyPaths npy;
  std::string produces;  // empty: the registry entry's data_kind
  // Files held by each data centre (`per_dc`): the same format and options,
  // each DC's own paths; empty: one set of files for the whole job.
  struct DcFiles {
    std::string dc;
    std::string train_file, test_file;
    NpyPaths npy;
  };
  std::vector<DcFiles> per_dc;
  double param(const std::string& name) const { return params.at(name); }
  // This spec with one DC's files in place of the job's.
  DatasetSpec for_dc(const DcFiles& f) const {
    DatasetSpec d = *this;
    d.per_dc.clear();
    d.train_file = f.train_file;
    d.test_file = f.test_file;
    d.npy = f.npy;
    return d;
  }
};

}  // namespace geotrain
