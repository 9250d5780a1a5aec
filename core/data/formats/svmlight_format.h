// SVMlight / LIBSVM files as a dataset: "<label> [qid:<q>] <index>:<value> ...
// [# comment]" per row, the format of LIBSVM's data sets and the learning-to-
// rank collections (LETOR, MSLR). Indices must increase within a row; they are
// 1-based unless the file holds a 0 (or `zero_based` says so). Rows are read
// into compressed sparse rows and then made dense (the learners' input today):
// a file whose dense form would pass 2 GB is refused, naming its size.
//  - classification: the distinct label values, in numeric order, are the
//    classes 0.. (-1/+1 become 0/1);
//  - regression: the label is the target;
//  - ranking: the label is the relevance grade, rows grouped by qid (a qid's
//    rows must be contiguous).
// Errors are std::runtime_error "<file>:<line>: <what>".
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace geotrain {

struct SvmlightOptions {
  enum class Task { kClassification, kRegression, kRanking } task = Task::kClassification;
  int features = 0;  // the feature count; 0: one past the largest index in the training file
  enum class Base { kAuto, kZero, kOne } base = Base::kAuto;
  // Classification: the label values (class i is the i-th smallest); empty:
  // the training file's distinct values (per_dc requires them listed).
  std::vector<double> classes;
  double max_dense_values = 5e8;  // refused above (2 GB of float32); the fuzz target lowers it
};

// The training file and, if given, the test file (else test_fraction of the
// training rows, or of its queries for ranking, drawn with `seed`).
TrainTest load_svmlight(const SvmlightOptions& o, const std::string& train_path, const std::string& test_path,
                        double test_fraction, std::uint64_t seed);

}  // namespace geotrain
