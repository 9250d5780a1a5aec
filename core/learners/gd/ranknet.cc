#include "core/learners/gd/ranknet.h"

#include <cmath>

namespace geotrain {

double RankNet::query_loss(const float* s, const float* g, int n, float* ds, double* terms) const {
  double loss = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (g[i] <= g[j]) continue;  // each ordered pair once: i more relevant than j
      const double m = double(s[i]) - double(s[j]);
      loss += m > 0 ? std::log1p(std::exp(-m)) : -m + std::log1p(std::exp(m));
      const float sig = float(1.0 / (1.0 + std::exp(m)));  // sigma(-m) = -d loss / d m
      ds[i] -= sig;
      ds[j] += sig;
      *terms += 1;
    }
  return loss;
}

}  // namespace geotrain
