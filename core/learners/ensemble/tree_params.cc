#include "core/learners/ensemble/tree_params.h"

#include <algorithm>

namespace geotrain {

// The tree engine's parameters, then a booster's, with defaults per learner.
std::vector<NumericParam> tree_params(int depth, int iterations, std::vector<NumericParam> more) {
  std::vector<NumericParam> p = {
      {"depth", double(depth), 1, 30, true, "levels of splits per tree (one round each)"},
      {"bins", 32, 2, 256, true, "bins per feature, cut at quantiles of a merged sample"},
      {"sketch_rows", 4096, 16, 1 << 20, true, "rows in the binning sample"},
      {"iterations", double(iterations), 1, 100000, true, "boosting iterations (trees per output); the run ends after"},
      {"subtraction", 1, 0, 1, true, "1: only the smaller child's histograms travel, the server subtracts"}};
  p.insert(p.end(), more.begin(), more.end());
  return p;
}

std::vector<NumericParam> boost_params(double eta, double lambda, double subsample, bool second_order) {
  std::vector<NumericParam> p = {
      {"eta", eta, 1e-6, 1, false, "shrinkage of every leaf"},
      {"lambda", lambda, 0, 1e6, false, "L2 penalty on leaf values"},
      {"min_child_weight", 1, 0, 1e9, false, second_order ? "a child's least hessian sum" : "a child's least rows"},
      {"subsample", subsample, 1e-6, 1, false, "rows drawn per iteration"}};
  if (second_order) {
    p.push_back({"gamma", 0, 0, 1e9, false, "a split's least gain"});
    p.push_back({"colsample", 1, 1e-6, 1, false, "features drawn per tree"});
  }
  return tree_params(6, 100, p);
}

TreeShape shape_of(const ModelSpec& m) {
  TreeShape s;
  s.depth = int(m.param("depth"));
  s.bins = int(m.param("bins"));
  s.sketch_rows = int(m.param("sketch_rows"));
  s.iterations = int(m.param("iterations"));
  s.subtraction = !m.params.count("subtraction") || m.param("subtraction") != 0;
  return s;
}

std::vector<NumericParam> forest_params() {
  auto p = tree_params(
      14, 20,
      {{"trees_per_round", 5, 1, 1000, true, "trees grown together, a level a round"},
       {"min_leaf", 1, 0, 1e9, false, "least bootstrap weight in a child"},
       {"features_fraction", 0, 0, 1, false, "features drawn per split; 0: sqrt(features)"},
       {"bootstrap_rate", 1, 1e-3, 10, false, "a row's weight in a tree: Poisson(rate); 1: the bootstrap"}});
  p.erase(std::remove_if(p.begin(), p.end(), [](const NumericParam& x) { return x.name == "subtraction"; }), p.end());
  for (auto& x : p)
    if (x.name == "iterations") x.help = "groups of trees_per_round trees grown; the run ends after";
  return p;
}

BoostParams boost_of(const ModelSpec& m, bool second_order) {
  BoostParams b;
  b.eta = m.param("eta");
  b.lambda = m.param("lambda");
  b.min_child_weight = m.param("min_child_weight");
  b.subsample = m.param("subsample");
  b.second_order = second_order;
  if (second_order) {
    b.gamma = m.param("gamma");
    b.colsample = m.param("colsample");
  }
  return b;
}

}  // namespace geotrain
