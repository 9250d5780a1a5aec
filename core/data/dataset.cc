#include "core/data/dataset.h"

#include <algorithm>

namespace geotrain {

Dataset Dataset::head(int n) const {
  if (n <= 0 || n >= size() || !labelled()) return *this;
  Dataset d;
  d.name = name;
  d.kind = kind;
  d.classes = classes;
  d.x = x.leftCols(n);
  d.y.assign(y.begin(), y.begin() + n);
  return d;
}

Dataset Dataset::from(int first) const {
  if (first <= 0 || !labelled()) return *this;
  Dataset d = *this;
  first = std::min(first, size());
  d.x = x.rightCols(size() - first);
  d.y.assign(y.begin() + first, y.end());
  return d;
}

Dataset Dataset::only_classes(const std::vector<int>& keep) const {
  if (keep.empty() || !labelled()) return *this;
  std::vector<int> to(std::size_t(classes), -1), idx;
  for (std::size_t k = 0; k < keep.size(); ++k) to.at(std::size_t(keep[k])) = int(k);
  for (int i = 0; i < size(); ++i)
    if (to[std::size_t(y[std::size_t(i)])] >= 0) idx.push_back(i);
  Dataset d;
  d.name = name;
  d.kind = kind;
  d.classes = int(keep.size());
  gather(*this, idx, &d.x, &d.y);
  for (int& label : d.y) label = to[std::size_t(label)];
  return d;
}

void gather(const Dataset& d, const std::vector<int>& idx, Eigen::MatrixXf* x, std::vector<int>* y) {
  x->resize(d.features(), static_cast<Eigen::Index>(idx.size()));
  y->resize(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) {
    x->col(static_cast<Eigen::Index>(i)) = d.x.col(idx[i]);
    (*y)[i] = d.y[idx[i]];
  }
}

}  // namespace geotrain
