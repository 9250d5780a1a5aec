// A random forest on the histogram engine (core/learners/ensemble/hist_trees.h):
// bagged classification trees grown level by level from class-count
// histograms summed exactly up the hierarchy, so the forest is the one a
// single machine would grow from all the data.
//  - bagging: each tree weighs each row by a Poisson(1) draw (the bootstrap in
//    the limit; `bootstrap_rate` scales it), drawn from (seed, tree, row): the
//    same on any sharding;
//  - each split considers sqrt(features) features drawn per node, so the
//    histograms of a node cover only those (and subtraction does not apply);
//  - split by the Gini impurity decrease; a leaf keeps its class distribution
//    and the forest averages them (soft voting);
//  - complete trees stay on the global server (the workers never need them).
#pragma once
#include "core/learners/ensemble/hist_trees.h"

namespace geotrain {

struct ForestParams {
  int trees_per_round = 5;       // trees grown together (a group)
  double min_leaf = 1;           // least bootstrap weight in a child
  double features_fraction = 0;  // features per split; 0: sqrt(features)
  double bootstrap_rate = 1;     // a row's weight in a tree is Poisson(rate): 1 the bootstrap, 0.25 a quarter
};

class RandomForest : public HistTrees {
 public:
  RandomForest(int features, int classes, TreeShape shape, ForestParams fp);
  std::string name() const override { return "random_forest"; }
  const std::vector<MetricInfo>& metrics() const override { return static_metrics(); }
  static const std::vector<MetricInfo>& static_metrics();
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;

 protected:
  double row_stats(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, const std::vector<int>& rows,
                   int first, int iteration, Eigen::MatrixXf* stats) const override;
  std::vector<int> node_features(std::uint64_t seed, int tree, int node) const override;
  double split_gain(const double* left, const double* right, const double* total) const override;
  double child_weight(const double* sums) const override;
  void leaf_values(const double* sums, float* out) const override;

 private:
  int classes_, per_split_;
  ForestParams fp_;
};

}  // namespace geotrain
