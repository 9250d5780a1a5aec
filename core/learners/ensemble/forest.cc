#include "core/learners/ensemble/forest.h"

namespace geotrain {

std::vector<int> ForestView::open_nodes() const {
  std::vector<int> out;
  for (int n = 1; n < nodes(); ++n)
    if (at(n, 0) == kOpen) out.push_back(n);
  return out;
}

int ForestEditor::append(float kind, int tree, int parent) {
  const Eigen::Index n = nodes_.size() / width_;
  nodes_.conservativeResize((n + 1) * width_);
  nodes_.segment(n * width_, width_).setZero();
  at(int(n), 0) = kind;
  at(int(n), 3) = 1.0f;
  at(int(n), 4) = float(tree);
  at(int(n), 5) = float(parent);
  return int(n);
}

int ForestEditor::add_tree() {
  const int t = int(roots_[0]);
  const int r = append(kOpen, t, 0);
  roots_.conservativeResize(roots_.size() + 1);
  roots_[0] = float(t + 1);
  roots_[roots_.size() - 1] = float(r);
  return t;
}

int ForestEditor::add_children(int n, bool leaves) {
  const int t = int(at(n, 4));
  const int l = append(leaves ? kLeaf : kOpen, t, n);
  append(leaves ? kLeaf : kOpen, t, n);
  return l;
}

void ForestEditor::set_split(int n, int feature, int bin, int left) {
  at(n, 0) = float(feature);
  at(n, 1) = float(bin);
  at(n, 2) = float(left);
  at(n, 3) = 0.0f;
}

void ForestEditor::set_leaf(int n, const float* values) {
  at(n, 0) = kLeaf;
  at(n, 3) = 0.0f;
  for (int j = 0; j < values_; ++j) at(n, kNodeFields + j) = values[j];
}

void ForestEditor::set_computed(int n, bool computed) { at(n, 3) = computed ? 1.0f : 0.0f; }

}  // namespace geotrain
