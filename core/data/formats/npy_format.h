// NumPy .npy files as a dataset (an .npy.gz is read through gzip): features
// as an array of shape (rows, ...) (every dimension after the first is
// flattened, C or Fortran order), labels or targets as shape (rows,). Element
// types: bool, signed and unsigned integers of 1 to 8 bytes, float32 and
// float64, either byte order. Features must be finite; labels of a classifier
// whole numbers 0..k-1.
// Errors are std::runtime_error naming the file and what was expected.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/data/dataset.h"

namespace geotrain {

// An array's shape and its values as floats, in C order.
struct NpyArray {
  std::vector<std::int64_t> shape;
  std::vector<float> values;
};
NpyArray read_npy(const std::string& path);

struct NpyPaths {
  std::string train_x, train_y, test_x, test_y;  // test_*: empty for a split of the training rows
};
TrainTest load_npy(const NpyPaths& p, bool regression, double test_fraction, std::uint64_t seed);

}  // namespace geotrain
