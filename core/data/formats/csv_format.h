// CSV and TSV files as a dataset: one row per sample, one column the label
// (classification) or the target (regression), the others features.
//  - Numbers are parsed by fast_float (Debian's libfast-float-dev): exact
//    round-to-nearest, locale-free, several times faster than strtod.
//  - Fields may be quoted ("a, b", with "" for a quote); a quoted field that
//    runs past its line is refused (multi-line fields are not read).
//  - Missing values (an empty field, NA, NaN, nan, null, ?) are refused, or
//    read as 0 or as the column's training mean (`missing`); infinities are
//    always refused.
//  - Categorical columns become one-hot features: from an explicit vocabulary
//    (a value outside it is refused), or hashed with FNV-1a of "column=value"
//    into `hash_width` shared buckets (the hashing trick: no vocabulary to
//    agree on, so data centres that never see each other's rows agree).
//  - Labels: integers 0..k-1 stand for themselves; anything else is mapped to
//    0.. in sorted order of the training file's values, unless `classes`
//    lists them in order. A test label the mapping does not know is refused.
// Errors are std::runtime_error "<file>:<line>: column <c> (<name>): <what>".
#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace geotrain {

struct CsvOptions {
  char delimiter = ',';  // ',' or '\t' ("tab")
  bool header = true;    // the first row (after skip_rows) names the columns
  int skip_rows = 0;     // lines skipped first (sklearn's files open with a row of counts)
  std::string label;     // the label or target column: a header name, or a 0-based index
  bool regression = false;
  enum class Missing { kError, kZero, kMean } missing = Missing::kError;
  std::vector<std::string> ignore;                             // columns read past (names or indices)
  std::map<std::string, std::vector<std::string>> vocabulary;  // categorical columns, one-hot
  std::vector<std::string> hashed;                             // categorical columns, hashed
  int hash_width = 1024;                                       // buckets shared by the hashed columns
  std::vector<std::string> classes;                            // label values in class order (empty: derived)
  bool standardize = false;  // each feature to mean 0, sd 1 by the training file's statistics
  // Each DC reads its own files (per_dc): labels must map alike everywhere, so
  // labels that are not whole numbers need `classes`, and a test file's whole
  // numbers may name classes its training file lacks.
  bool agreed_labels = false;
};

// The training file and, if given, the test file (else test_fraction of the
// training rows, drawn with `seed`). The test file's columns must match the
// training file's (same header, or the same count without one).
TrainTest load_csv(const CsvOptions& o, const std::string& train_path, const std::string& test_path,
                   double test_fraction, std::uint64_t seed);

}  // namespace geotrain
