// Eigen picks its matrix-product blocking (how the inner dimension is split,
// hence the order in which float products are summed) from the cache sizes the
// CPU reports. Two machines with different caches would then train the same
// scenario and seed to different last bits, and the runs would drift apart.
// Pinning the sizes makes the maths depend only on the inputs.
#pragma once

namespace geotrain {

// Sets Eigen's assumed L1/L2/L3 sizes to fixed values (typical of x86-64
// servers). Idempotent and cheap; models call it before any product.
void use_fixed_matrix_blocking();

}  // namespace geotrain
