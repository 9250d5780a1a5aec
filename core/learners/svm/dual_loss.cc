#include "core/learners/svm/dual_loss.h"

#include <algorithm>
#include <cmath>

namespace geotrain {

float DualLoss::loss(float p, float y) const {
  if (epsilon_insensitive) return std::max(0.0f, std::fabs(p - y) - eps);
  return std::max(0.0f, 1.0f - y * p);
}

float DualLoss::piece(float alpha, float y) const {
  if (epsilon_insensitive) return alpha * y - eps * std::fabs(alpha);
  return alpha * y;
}

float DualLoss::step(float alpha, float y, float p, float q) const {
  if (q <= 0) return alpha;
  if (!epsilon_insensitive) {
    const float beta = alpha * y + (1.0f - y * p) / q;
    return y * std::clamp(beta, 0.0f, 1.0f);
  }
  // The piece is concave with a kink at 0: try each side, else the kink.
  const float up = alpha + (y - eps - p) / q, down = alpha + (y + eps - p) / q;
  if (up > 0) return std::min(up, 1.0f);
  if (down < 0) return std::max(down, -1.0f);
  return 0.0f;
}

}  // namespace geotrain
