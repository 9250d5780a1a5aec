#include "core/learners/gd/listnet.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace geotrain {
namespace {
// softmax of v (n entries) into out.
void softmax(const float* v, int n, std::vector<double>& out) {
  out.resize(std::size_t(n));
  const double mx = *std::max_element(v, v + n);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += out[std::size_t(i)] = std::exp(double(v[i]) - mx);
  for (auto& x : out) x /= sum;
}
}  // namespace

double ListNet::query_loss(const float* s, const float* g, int n, float* ds, double* terms) const {
  std::vector<double> pt, ps;
  softmax(g, n, pt);
  softmax(s, n, ps);
  double loss = 0;
  for (int i = 0; i < n; ++i) {
    loss -= pt[std::size_t(i)] * std::log(std::max(ps[std::size_t(i)], 1e-300));
    ds[i] += float(ps[std::size_t(i)] - pt[std::size_t(i)]);
  }
  *terms += 1;
  return loss;
}

}  // namespace geotrain
