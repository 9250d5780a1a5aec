#include "core/codec/topk_select.h"

#include <algorithm>
#include <cmath>

namespace geotrain {

std::vector<std::uint32_t> select_top(const Eigen::VectorXf& v, double density, std::size_t cap, std::mt19937_64& rng) {
  const std::size_t n = std::size_t(v.size());
  std::vector<std::uint32_t> out;
  if (n == 0 || cap == 0) return out;
  float threshold = 0;
  if (density < 1) {
    const std::size_t want = std::max<std::size_t>(std::size_t(std::ceil(10.0 / density)), n / 200);
    const std::size_t sample = std::min(n, want);
    const std::size_t stride = n / sample;
    const std::size_t offset = std::uniform_int_distribution<std::size_t>(0, stride - 1)(rng);
    std::vector<float> s(sample);
    for (std::size_t j = 0; j < sample; ++j) s[j] = std::abs(v[Eigen::Index(offset + j * stride)]);
    const std::size_t k = std::max<std::size_t>(1, std::size_t(double(sample) * density));
    std::nth_element(s.begin(), s.begin() + std::ptrdiff_t(k - 1), s.end(), std::greater<float>());
    threshold = s[k - 1];
  }
  out.reserve(std::min(cap, std::size_t(double(n) * density * 1.5) + 16));
  const float* p = v.data();
  for (std::size_t i = 0; i < n && out.size() < cap; ++i)
    if (std::abs(p[i]) >= threshold && p[i] != 0.0f) out.push_back(std::uint32_t(i));
  return out;
}

}  // namespace geotrain
