// Sparse selections in a message's payload: what Gaia's significance filter and a
// server's pull of what changed put in a message, in the `sparse` encoding
// (core/codec/sparse.h) or dense, whichever is smaller on the wire.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <vector>

#include "core/payload/message.h"

namespace geotrain {

// Appends x's entries at `indices` to p (key above every key p has): as a
// sparse block, or as a dense one (zero elsewhere) when that is smaller.
void append_selected(Payload& p, std::uint32_t key, const Eigen::VectorXf& x,
                     const std::vector<std::uint32_t>& indices);
// Does p carry any entry (a dense block, a non-empty sparse one, any other coded one)?
bool carries_entries(const Payload& p);

}  // namespace geotrain
