// The engine every histogram tree learner shares (GBDT, the XGBoost-style
// learner, GBrank and LambdaMART boost with it; the random forest bags with
// it): binning from a merged sketch, then trees grown one level per round.
//
// Round 0 (the sketch phase): every worker sends a bottom-k sample of its rows
// (core/learners/ensemble/binning.h); the global server cuts each feature into
// at most `bins` bins. Every later round grows one level of the current group
// of trees (one per class for a multiclass booster): each worker bins its shard
// (once; it keeps the bins), computes each row's statistics (gradient and
// hessian, or class counts; the subclass's `row_stats`), and sums them into a
// histogram per open node, feature and bin; the histograms sum exactly up the
// hierarchy (every statistic is a multiple of a power of two small enough that
// no sum rounds: the same trees on 4 workers as on one, split for split); the
// global server chooses each node's best split (`split_gain`), appends the
// children, and makes a node that does not split a leaf (`leaf_values`).
// Histogram subtraction: of two children only the one with the smaller
// weight is computed by the workers; the server derives the other from the
// parent's histogram (which it keeps in a block it never sends) minus it.
//
// Model blocks: state, cuts, the forest (core/learners/ensemble/forest.h), and
// blocks the server keeps for itself: the parent histograms and, for a forest
// whose complete trees the workers never need (bagging), those trees. The
// pulled forest only grows within a group, so a sparse pull codec sends its
// change. Update blocks: the sketch (k-smallest) or the histograms (sum).
// Policies: one model per round, merged from every worker (bsp); codecs: fp16
// or lossless on pushes, lossless on pulls.
//
// Workers keep their rows' bins (and a booster its rows' scores) in the
// learner between rounds: caches of what the pulled model determines, checked
// against it and recomputed when it differs (a restored checkpoint).
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/learners/ensemble/forest.h"
#include "core/learners/learner.h"

namespace geotrain {

struct TreeShape {
  int depth = 6;            // levels of splits; the root is level 0
  int bins = 32;            // per feature, at most 256
  int sketch_rows = 4096;   // rows in the merged binning sample
  int iterations = 100;     // groups of trees grown; the run ends after the last
  bool subtraction = true;  // only the smaller child's histogram travels
  // Complete trees move to blocks the server keeps (a forest whose trees the
  // workers never need again: bagging); false: they stay in the pulled forest
  // (boosting: the workers' gradients depend on them).
  bool server_keeps_complete = false;
};

class HistTrees : public Learner {
 public:
  enum Key : std::uint32_t {
    kState = 0,
    kCuts = 1,
    kRoots = 2,  // the pulled forest: every tree (boosting) or the group being grown
    kNodes = 3,
    kParents = 4,    // server only: the last level's histograms
    kDoneRoots = 5,  // server only (server_keeps_complete): the complete trees
    kDoneNodes = 6,
    kSketch = 10,
    kHist = 11
  };

  ParamSet init(std::uint64_t seed) const override;
  std::vector<BlockRule> block_rules() const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const final;
  void apply(ParamSet& model, const ParamSet& merged, int contributors) const final;
  std::vector<std::uint32_t> server_only_keys() const override { return {kParents, kDoneRoots, kDoneNodes}; }
  bool finished(const ParamSet& p) const override;
  // The largest update is the sketch or the deepest level's histograms (the
  // model is small beside them); the model grows to every tree's nodes.
  LearnerFootprint footprint(const ParamSet& initial, std::int64_t train_rows) const override;
  double train_flops_per_sample() const override { return 2.0 * features_ * group_ * channels_; }

  // Trees complete (the group being grown not counted), levels grown so far.
  static int trees_complete(const ParamSet& p);
  static int levels_grown(const ParamSet& p);
  const TreeShape& shape() const { return shape_; }

 protected:
  // `group` trees grown together per iteration, `channels` statistics per row
  // and bin, `values` per leaf.
  HistTrees(int features, TreeShape shape, int group, int channels, int values);

  // The statistics of `rows` (columns of train) for the group of trees that
  // starts at tree `first` (counting every tree grown), in iteration
  // `iteration`: (group x channels) x rows.
  // Each must be a multiple of a power of two chosen so that a sum over all of
  // train's rows is exact in float (quantize() does it). Returns the loss sum.
  virtual double row_stats(const ParamSet& p, const Dataset& train, const std::vector<int>& batch,
                           const std::vector<int>& rows, int first, int iteration, Eigen::MatrixXf* stats) const = 0;
  // The features node n of tree t may split on, ascending; empty: all.
  virtual std::vector<int> node_features(std::uint64_t /*seed*/, int /*tree*/, int /*node*/) const { return {}; }
  // A split's gain from its children's and the node's channel sums; not
  // finite or <= 0: not a split.
  virtual double split_gain(const double* left, const double* right, const double* total) const = 0;
  // Of two children the workers compute the lighter one's histogram.
  virtual double child_weight(const double* sums) const = 0;
  virtual void leaf_values(const double* sums, float* out) const = 0;

  // For subclasses.
  static std::uint64_t seed_of(const ParamSet& p);
  ForestView forest(const ParamSet& p) const;
  // The complete trees: trees_complete(p) of them, in order.
  ForestView complete_forest(const ParamSet& p) const;
  // x <= the cut of `bin` of `feature`: a split on raw values.
  // (cuts: p's cuts block, fetched once per prediction pass, not once per node.)
  bool goes_left(const float* cuts, int feature, int bin, float x) const {
    return x <= cuts[std::size_t(feature) * std::size_t(shape_.bins - 1) + std::size_t(bin)];
  }
  static const float* cuts_of(const ParamSet& p) { return block_of(p, kCuts).data(); }
  // v rounded to a multiple of 2^-bits, up or down with probability by how
  // near (u uniform in [0, 1)): unbiased, and sums of such values are exact.
  static float quantize(float v, int bits, double u);
  // The bits for values of magnitude at most `bound` summed over n rows: the
  // most that keep every sum below 2^24 units.
  static int quantize_bits(double bound, Eigen::Index n);

  int features_, group_, channels_, values_;
  TreeShape shape_;

 private:
  struct Bins;
  const std::uint8_t* binned(const Dataset& d, const Eigen::VectorXf& cuts, const std::vector<int>& rows) const;
  // Offsets of the computed open nodes' histograms in the histogram block, and its size.
  Eigen::Index layout(const ParamSet& p, const std::vector<int>& open, std::vector<Eigen::Index>* offset,
                      std::vector<std::vector<int>>* feats) const;
  void start_group(ParamSet& model) const;
  // server_keeps_complete: the grown group joins the complete trees; the pulled forest empties.
  void move_complete(ParamSet& model) const;
  mutable std::mutex bins_mutex_;
  mutable std::shared_ptr<Bins> bins_;
};

}  // namespace geotrain
