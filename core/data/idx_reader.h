// Reads MNIST-format IDX files (optionally gzip-compressed, as Debian's
// dataset-fashion-mnist ships them). Pixels are scaled to [0, 1].
#pragma once
#include <string>

#include "core/data/dataset.h"

namespace geotrain {

// Loads <dir>/train-images-idx3-ubyte(.gz) etc. Throws std::runtime_error naming
// the file on a missing or malformed file.
TrainTest load_idx_dataset(const std::string& dir, const std::string& name);

}  // namespace geotrain
