#include "core/payload/params.h"

#include <algorithm>
#include <stdexcept>

namespace geotrain {

namespace {
void check_layout(const ParamSet& a, const ParamSet& b) {
  if (a.size() != b.size()) throw std::logic_error("param sets differ in block count");
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].key != b[i].key || a[i].values.size() != b[i].values.size())
      throw std::logic_error("param sets differ in block layout");
}
}  // namespace

ParamSet zeros_like(const ParamSet& p) {
  ParamSet z;
  z.reserve(p.size());
  for (const auto& b : p) z.push_back({b.key, Eigen::VectorXf::Zero(b.values.size()), b.stands_for});
  return z;
}

void add_scaled(ParamSet& acc, const ParamSet& x, float s) {
  check_layout(acc, x);
  for (std::size_t i = 0; i < acc.size(); ++i) acc[i].values += s * x[i].values;
}

void scale(ParamSet& p, float factor) {
  for (auto& b : p) b.values *= factor;
}

std::size_t element_count(const ParamSet& p) {
  std::size_t n = 0;
  for (const auto& b : p) n += static_cast<std::size_t>(b.values.size());
  return n;
}

float max_abs_diff(const ParamSet& a, const ParamSet& b) {
  check_layout(a, b);
  float m = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].values.size() > 0) m = std::max(m, (a[i].values - b[i].values).cwiseAbs().maxCoeff());
  return m;
}

const Eigen::VectorXf& block_of(const ParamSet& p, std::uint32_t key) {
  for (const auto& b : p)
    if (b.key == key) return b.values;
  throw std::invalid_argument("no parameter block with key " + std::to_string(key));
}

Eigen::VectorXf& block_of(ParamSet& p, std::uint32_t key) {
  return const_cast<Eigen::VectorXf&>(block_of(static_cast<const ParamSet&>(p), key));
}

}  // namespace geotrain
