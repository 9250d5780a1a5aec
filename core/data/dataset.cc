#include "core/data/dataset.h"

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

void gather(const Dataset& d, const std::vector<int>& idx, Eigen::MatrixXf* x, std::vector<int>* y) {
  x->resize(d.features(), static_cast<Eigen::Index>(idx.size()));
  y->resize(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) {
    x->col(static_cast<Eigen::Index>(i)) = d.x.col(idx[i]);
    (*y)[i] = d.y[idx[i]];
  }
}

}  // namespace geotrain
