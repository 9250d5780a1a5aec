// A test set held out of a training file that came without one: `fraction`
// of its units (rows, or whole queries for ranking), drawn with `seed`, both
// parts kept in file order.
#pragma once
#include <cstdint>

#include "core/data/dataset.h"

namespace geotrain {

// Throws std::runtime_error when the fraction leaves either part empty.
TrainTest hold_out(Dataset all, double fraction, std::uint64_t seed);

}  // namespace geotrain
