// A forest of binary trees held in two model blocks, grown one level per round.
//
//  roots  [n, root of tree 0, ..., root of tree n-1]
//  nodes  records of kNodeFields + `values` entries; record 0 is unused
//
// A record: [kind, bin, left, aux, tree, parent, value_0, ...]. kind >= 0: a
// split on that feature, a row whose bin is <= `bin` goes to `left`, the others
// to left + 1; kLeaf: a leaf with its values; kOpen: a node awaiting its split
// in this round (aux 1: the workers compute its histogram; 0: the server
// derives it, its parent's minus its sibling's). Children are appended in
// pairs, so a node's index never changes and a tree's nodes need no pointers
// but `left`. Every entry is a small integer or a leaf value: exact in float.
#pragma once
#include <Eigen/Dense>
#include <vector>

namespace geotrain {

constexpr int kNodeFields = 6;
constexpr float kLeaf = -1.0f, kOpen = -2.0f;

class ForestView {
 public:
  ForestView(const Eigen::VectorXf& roots, const Eigen::VectorXf& nodes, int values)
      : roots_(roots), nodes_(nodes), width_(kNodeFields + values) {}
  int trees() const { return int(roots_[0]); }
  int root(int t) const { return int(roots_[1 + t]); }
  int nodes() const { return int(nodes_.size() / width_); }
  int kind(int n) const { return int(at(n, 0)); }
  int bin(int n) const { return int(at(n, 1)); }
  int left(int n) const { return int(at(n, 2)); }
  bool computed(int n) const { return at(n, 3) != 0.0f; }
  int tree(int n) const { return int(at(n, 4)); }
  int parent(int n) const { return int(at(n, 5)); }
  const float* values(int n) const { return nodes_.data() + Eigen::Index(n) * width_ + kNodeFields; }
  // The node a row reaches in tree t: goes_left(feature, bin) decides each split.
  template <class GoesLeft>
  int descend(int t, GoesLeft goes_left) const {
    int n = root(t);
    for (int k = kind(n); k >= 0; k = kind(n)) n = goes_left(k, bin(n)) ? left(n) : left(n) + 1;
    return n;
  }
  // Open nodes, ascending (the order their histograms travel in).
  std::vector<int> open_nodes() const;

 private:
  float at(int n, int field) const { return nodes_[Eigen::Index(n) * width_ + field]; }
  const Eigen::VectorXf& roots_;
  const Eigen::VectorXf& nodes_;
  int width_;
};

// Appends and edits records in place (the global server's side).
class ForestEditor {
 public:
  ForestEditor(Eigen::VectorXf& roots, Eigen::VectorXf& nodes, int values)
      : roots_(roots), nodes_(nodes), values_(values), width_(kNodeFields + values) {}
  ForestView view() const { return ForestView(roots_, nodes_, values_); }
  // A new tree whose root is open and computed by the workers; returns its index.
  int add_tree();
  // Appends two children of n (open, or leaves when `leaves`); returns the left one's index.
  int add_children(int n, bool leaves);
  void set_split(int n, int feature, int bin, int left);
  void set_leaf(int n, const float* values);
  void set_computed(int n, bool computed);

 private:
  int append(float kind, int tree, int parent);
  float& at(int n, int field) { return nodes_[Eigen::Index(n) * width_ + field]; }
  Eigen::VectorXf& roots_;
  Eigen::VectorXf& nodes_;
  int values_, width_;
};

}  // namespace geotrain
