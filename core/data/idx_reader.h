// Reads MNIST-format IDX files (optionally gzip-compressed, as Debian's
// dataset-fashion-mnist ships them). Pixels are scaled to [0, 1].
#pragma once
#include <string>

#include "core/data/dataset.h"

namespace geotrain {

// Loads <dir>/train-images-idx3-ubyte(.gz) etc. Throws std::runtime_error naming
// the file on a missing or malformed file.
TrainTest load_idx_dataset(const std::string& dir, const std::string& name);

// With `keep` on, the decoded files stay in memory for the rest of the process
// and each later load of the same, unchanged files (same sizes and times) is a
// copy: for a process that runs many scenarios one after another (the test
// binary), where decoding Fashion-MNIST was a quarter of a short run. Off by
// default: a single run would hold the dataset twice. Thread-safe.
void keep_idx_datasets_loaded(bool keep);

}  // namespace geotrain
