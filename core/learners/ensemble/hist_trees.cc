#include "core/learners/ensemble/hist_trees.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "core/learners/ensemble/binning.h"
#include "core/learners/ensemble/hashing.h"

namespace geotrain {
namespace {

enum TreeState : int { kSeedLo, kSeedHi, kPhase, kIteration, kLevels, kTreesComplete, kLevel, kTreeStateSize };
enum TreePhase : int { kSketchPhase, kGrowPhase, kDonePhase };

int state(const ParamSet& p, TreeState s) { return int(block_of(p, HistTrees::kState)[s]); }

}  // namespace

// The worker's bins of its rows: computed once per (data, cuts) and kept, a
// cache of a pure function of the learner's inputs.
struct HistTrees::Bins {
  const Dataset* data = nullptr;
  Eigen::VectorXf cuts;
  std::vector<std::uint8_t> bins;  // row-major, features per row
  std::vector<char> done;
};

HistTrees::HistTrees(int features, TreeShape shape, int group, int channels, int values)
    : features_(features), group_(group), channels_(channels), values_(values), shape_(shape) {
  if (shape.bins < 2 || shape.bins > 256) throw std::invalid_argument("bins must be between 2 and 256");
  if (shape.depth < 1 || shape.depth > 30) throw std::invalid_argument("depth must be between 1 and 30");
}

ParamSet HistTrees::init(std::uint64_t seed) const {
  Eigen::VectorXf st = Eigen::VectorXf::Zero(kTreeStateSize);
  st[kSeedLo] = float(seed & 0xffffff);
  st[kSeedHi] = float((seed >> 24) & 0xffffff);
  Eigen::VectorXf nodes = Eigen::VectorXf::Zero(kNodeFields + values_);
  nodes[0] = kLeaf;  // record 0 is unused
  return {{kState, st},
          {kCuts, Eigen::VectorXf::Zero(Eigen::Index(features_) * (shape_.bins - 1))},
          {kRoots, Eigen::VectorXf::Zero(1)},
          {kNodes, nodes},
          {kParents, Eigen::VectorXf::Zero(1)},
          {kDoneRoots, Eigen::VectorXf::Zero(1)},
          {kDoneNodes, nodes}};
}

std::vector<BlockRule> HistTrees::block_rules() const {
  const BlockRule sketch = sketch_rule(kSketch, features_, shape_.sketch_rows);
  BlockRule hist{kHist, Merge::kSum, 1, 0, Precision::kRounding};
  return {sketch, hist};
}

LearnerFootprint HistTrees::footprint(const ParamSet&, std::int64_t train_rows) const {
  const std::uint64_t depth = std::uint64_t(shape_.depth), group = std::uint64_t(group_);
  const std::vector<int> sampled = node_features(0, 0, 0);
  const std::uint64_t per_node =  // one node's histograms
      std::uint64_t(sampled.empty() ? features_ : int(sampled.size())) * std::uint64_t(shape_.bins) *
      std::uint64_t(channels_);
  const std::uint64_t rows = std::uint64_t(std::max<std::int64_t>(1, train_rows));
  // The histograms of the deepest level that splits (depth - 1) and the forest
  // of full trees, where every node holds at least `per_leaf` rows: the nodes of
  // one level partition the rows. With subtraction one child of each pair is computed.
  const auto shape = [&](std::uint64_t per_leaf, std::uint64_t* hist, std::uint64_t* forest) {
    const std::uint64_t most = std::max<std::uint64_t>(1, rows / per_leaf);
    const std::uint64_t open = std::min(std::uint64_t(1) << (depth - 1), most);
    const std::uint64_t computed = shape_.subtraction && depth >= 2 ? std::max<std::uint64_t>(1, open / 2) : open;
    const std::uint64_t trees = group * std::uint64_t(shape_.iterations);
    const std::uint64_t nodes = std::min((std::uint64_t(2) << depth) - 1, 2 * most + 1);  // per tree
    *hist = group * computed * per_node;
    // The pulled forest and the complete trees (roots, nodes), and the parents kept for subtraction.
    *forest = 2 * (1 + trees + (1 + trees * nodes) * std::uint64_t(kNodeFields + values_)) + 1 + group * open +
              group * (open / 2 + 1) * per_node;
  };
  std::uint64_t hist = 0, forest = 0, expected_hist = 0, expected_forest = 0;
  shape(1, &hist, &forest);
  shape(1000, &expected_hist, &expected_forest);  // nodes of a thousand rows or more: what runs show
  const std::uint64_t sketch = std::uint64_t(shape_.sketch_rows) * std::uint64_t(1 + features_);
  const std::uint64_t fixed = kTreeStateSize + std::uint64_t(features_) * std::uint64_t(shape_.bins - 1);
  LearnerFootprint f;
  f.update_floats = std::max(hist, sketch);
  f.expected_update_floats = std::max(expected_hist, sketch);
  f.update_blocks = 1;
  f.model_floats = fixed + forest;
  f.expected_model_floats = fixed + expected_forest;
  f.model_blocks = 7;
  return f;
}

std::uint64_t HistTrees::seed_of(const ParamSet& p) {
  return std::uint64_t(state(p, kSeedLo)) | (std::uint64_t(state(p, kSeedHi)) << 24);
}
int HistTrees::trees_complete(const ParamSet& p) { return state(p, kTreesComplete); }
int HistTrees::levels_grown(const ParamSet& p) { return state(p, kLevels); }
bool HistTrees::finished(const ParamSet& p) const { return state(p, kPhase) == kDonePhase; }

ForestView HistTrees::forest(const ParamSet& p) const {
  return ForestView(block_of(p, kRoots), block_of(p, kNodes), values_);
}
ForestView HistTrees::complete_forest(const ParamSet& p) const {
  if (!shape_.server_keeps_complete) return forest(p);
  return ForestView(block_of(p, kDoneRoots), block_of(p, kDoneNodes), values_);
}

float HistTrees::quantize(float v, int bits, double u) {
  const double units = std::ldexp(double(v), bits);
  return float(std::ldexp(std::floor(units + u), -bits));
}

int HistTrees::quantize_bits(double bound, Eigen::Index n) {
  const double rows = double(std::max<Eigen::Index>(1, n)), limit = double((1 << 24) - 1);
  int bits = int(std::floor(std::log2(limit / (bound * rows))));
  while (rows * (std::ldexp(bound, bits) + 1) > limit) --bits;  // a rounded value may be one unit above the bound
  return bits;
}

const std::uint8_t* HistTrees::binned(const Dataset& d, const Eigen::VectorXf& cuts,
                                      const std::vector<int>& rows) const {
  std::lock_guard<std::mutex> lock(bins_mutex_);
  if (!bins_ || bins_->data != &d || bins_->cuts.size() != cuts.size() || bins_->cuts != cuts) {
    bins_ = std::make_shared<Bins>();
    bins_->data = &d;
    bins_->cuts = cuts;
    bins_->bins.assign(std::size_t(d.x.cols()) * std::size_t(features_), 0);
    bins_->done.assign(std::size_t(d.x.cols()), 0);
  }
  const int ncuts = shape_.bins - 1;
  for (int r : rows) {
    if (bins_->done[std::size_t(r)]) continue;
    std::uint8_t* out = bins_->bins.data() + std::size_t(r) * std::size_t(features_);
    for (int f = 0; f < features_; ++f)
      out[f] = std::uint8_t(bin_of(cuts.data() + Eigen::Index(f) * ncuts, ncuts, d.x(f, r)));
    bins_->done[std::size_t(r)] = 1;
  }
  return bins_->bins.data();
}

Eigen::Index HistTrees::layout(const ParamSet& p, const std::vector<int>& open, std::vector<Eigen::Index>* offset,
                               std::vector<std::vector<int>>* feats) const {
  const ForestView f = forest(p);
  const std::uint64_t seed = seed_of(p);
  offset->assign(std::size_t(f.nodes()), -1);
  feats->assign(std::size_t(f.nodes()), {});
  Eigen::Index total = 0;
  for (int n : open) {
    (*feats)[std::size_t(n)] = node_features(seed, f.tree(n), n);
    if (!f.computed(n)) continue;
    (*offset)[std::size_t(n)] = total;
    const auto& fs = (*feats)[std::size_t(n)];
    total += Eigen::Index(fs.empty() ? features_ : int(fs.size())) * shape_.bins * channels_;
  }
  return total;
}

double HistTrees::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64&,
                               ParamSet* update) const {
  update->clear();
  const int phase = state(p, kPhase);
  const std::vector<int> rows = rows_of(d, batch);
  if (phase == kSketchPhase) {
    update->push_back({kSketch, sketch_rows(d, rows, seed_of(p), shape_.sketch_rows)});
    return 0.0;
  }
  const ForestView f = forest(p);
  const std::vector<int> open = f.open_nodes();
  std::vector<Eigen::Index> offset;
  std::vector<std::vector<int>> feats;
  const Eigen::Index total = phase == kDonePhase ? 0 : layout(p, open, &offset, &feats);
  update->push_back({kHist, Eigen::VectorXf::Zero(std::max<Eigen::Index>(1, total))});
  if (total == 0) return 0.0;

  const std::uint8_t* bins = binned(d, block_of(p, kCuts), rows);
  Eigen::MatrixXf stats;
  const int first = state(p, kTreesComplete);                 // the group's first tree of all
  const int base = shape_.server_keeps_complete ? 0 : first;  // and in the pulled forest
  const double loss = row_stats(p, d, batch, rows, first, state(p, kIteration), &stats);
  float* hist = (*update)[0].values.data();
  const int nb = shape_.bins, c = channels_;
  // Tree by tree: one tree's node histograms stay in cache while every row adds into them.
  for (int t = 0; t < group_; ++t) {
    for (std::size_t j = 0; j < rows.size(); ++j) {
      const std::uint8_t* b = bins + std::size_t(rows[j]) * std::size_t(features_);
      const int n = f.descend(base + t, [b](int feature, int bin) { return b[feature] <= bin; });
      if (f.kind(n) != int(kOpen) || offset[std::size_t(n)] < 0) continue;
      const float* s = stats.col(Eigen::Index(j)).data() + t * c;
      bool any = false;
      for (int k = 0; k < c; ++k) any = any || s[k] != 0.0f;
      if (!any) continue;  // not sampled this iteration
      float* h = hist + offset[std::size_t(n)];
      const auto& fs = feats[std::size_t(n)];
      if (fs.empty() && c == 2) {  // the boosters' case, every feature: the hot loop
        const float g = s[0], hh = s[1];
        for (int ft = 0; ft < features_; ++ft) {
          float* cell = h + (std::size_t(ft) * std::size_t(nb) + b[ft]) * 2;
          cell[0] += g;
          cell[1] += hh;
        }
        continue;
      }
      const int nf = fs.empty() ? features_ : int(fs.size());
      for (int i = 0; i < nf; ++i) {
        float* cell = h + (std::size_t(i) * std::size_t(nb) + b[fs.empty() ? i : fs[std::size_t(i)]]) * std::size_t(c);
        for (int k = 0; k < c; ++k) cell[k] += s[k];
      }
    }
  }
  return rows.empty() ? 0.0 : loss / double(rows.size());
}

void HistTrees::move_complete(ParamSet& model) const {
  const ForestView g = forest(model);
  Eigen::VectorXf& roots = block_of(model, kDoneRoots);
  Eigen::VectorXf& nodes = block_of(model, kDoneNodes);
  const int width = kNodeFields + values_, base = int(nodes.size() / width) - 1;  // node n lands at base + n
  const int trees = int(roots[0]);
  nodes.conservativeResize(nodes.size() + Eigen::Index(g.nodes() - 1) * width);
  for (int n = 1; n < g.nodes(); ++n) {
    float* r = nodes.data() + Eigen::Index(base + n) * width;
    std::copy(g.values(n) - kNodeFields, g.values(n) + values_, r);
    if (g.kind(n) >= 0) r[2] += float(base);
    r[4] += float(trees);
    r[5] = g.parent(n) > 0 ? float(base + g.parent(n)) : 0.0f;
  }
  roots.conservativeResize(roots.size() + g.trees());
  for (int t = 0; t < g.trees(); ++t) roots[1 + trees + t] = float(base + g.root(t));
  roots[0] = float(trees + g.trees());
  block_of(model, kRoots) = Eigen::VectorXf::Zero(1);
  block_of(model, kNodes) = Eigen::VectorXf::Zero(width);
  block_of(model, kNodes)[0] = kLeaf;
}

void HistTrees::start_group(ParamSet& model) const {
  Eigen::VectorXf& st = block_of(model, kState);
  ForestEditor e(block_of(model, kRoots), block_of(model, kNodes), values_);
  for (int t = 0; t < group_; ++t) e.add_tree();
  st[kIteration] += 1;
  st[kLevel] = 0;
  st[kPhase] = kGrowPhase;
}

void HistTrees::apply(ParamSet& model, const ParamSet& merged, int) const {
  Eigen::VectorXf& st = block_of(model, kState);
  const int phase = int(st[kPhase]);
  if (phase == kDonePhase) return;
  if (phase == kSketchPhase) {
    block_of(model, kCuts) = cuts_from_sketch(block_of(merged, kSketch), features_, shape_.bins);
    return start_group(model);
  }
  const Eigen::VectorXf& hist = block_of(merged, kHist);
  const std::vector<int> open = forest(model).open_nodes();
  std::vector<Eigen::Index> offset;
  std::vector<std::vector<int>> feats;
  const Eigen::Index total = layout(model, open, &offset, &feats);
  if (hist.size() != std::max<Eigen::Index>(1, total))
    throw std::invalid_argument("tree learner: the merged histograms do not match the open nodes");

  // The parents kept last round: [count, node..., histograms...].
  const Eigen::VectorXf parents = block_of(model, kParents);
  std::vector<Eigen::Index> parent_at(offset.size(), -1);
  {
    const int np = int(parents[0]);
    Eigen::Index at = 1 + np;
    for (int i = 0; i < np; ++i) {
      const int n = int(parents[1 + i]);
      parent_at[std::size_t(n)] = at;
      const auto fs = node_features(seed_of(model), forest(model).tree(n), n);
      at += Eigen::Index(fs.empty() ? features_ : int(fs.size())) * shape_.bins * channels_;
    }
  }

  ForestEditor e(block_of(model, kRoots), block_of(model, kNodes), values_);
  const int level = int(st[kLevel]);
  const int nb = shape_.bins, c = channels_;
  std::vector<int> kept;                // nodes whose histograms the next level subtracts from
  std::vector<Eigen::VectorXf> kept_h;  // and those histograms
  const auto uc = static_cast<std::size_t>(c);
  std::vector<double> left(uc), right(uc), tot(uc), best_l, best_r;
  std::vector<float> leaf(static_cast<std::size_t>(values_));
  for (int n : open) {
    const ForestView f = e.view();
    const auto& fs = feats[std::size_t(n)];
    const int nf = fs.empty() ? features_ : int(fs.size());
    const Eigen::Index size = Eigen::Index(nf) * nb * c;
    Eigen::VectorXf h;
    if (f.computed(n)) {
      h = hist.segment(offset[std::size_t(n)], size);
    } else {  // the parent's minus the computed sibling's
      const int par = f.parent(n), l = f.left(par), sib = n == l ? l + 1 : l;
      if (parent_at[std::size_t(par)] < 0 || offset[std::size_t(sib)] < 0)
        throw std::invalid_argument("tree learner: a derived node's parent or sibling histogram is missing");
      h = parents.segment(parent_at[std::size_t(par)], size) - hist.segment(offset[std::size_t(sib)], size);
    }
    std::fill(tot.begin(), tot.end(), 0.0);
    for (int b = 0; b < nb; ++b)
      for (int k = 0; k < c; ++k) tot[std::size_t(k)] += h[Eigen::Index(b) * c + k];
    double best = 0.0;
    int best_f = -1, best_b = -1;
    for (int i = 0; i < nf && level < shape_.depth; ++i) {
      std::fill(left.begin(), left.end(), 0.0);
      const float* hf = h.data() + Eigen::Index(i) * nb * c;
      for (int b = 0; b + 1 < nb; ++b) {
        for (int k = 0; k < c; ++k) {
          left[std::size_t(k)] += hf[b * c + k];
          right[std::size_t(k)] = tot[std::size_t(k)] - left[std::size_t(k)];
        }
        const double g = split_gain(left.data(), right.data(), tot.data());
        if (std::isfinite(g) && g > best) {
          best = g, best_f = fs.empty() ? i : fs[std::size_t(i)], best_b = b;
          best_l = left, best_r = right;
        }
      }
    }
    if (best_f < 0) {
      leaf_values(tot.data(), leaf.data());
      e.set_leaf(n, leaf.data());
      continue;
    }
    const bool leaves = level + 1 >= shape_.depth;
    const int l = e.add_children(n, leaves);
    e.set_split(n, best_f, best_b, l);
    if (leaves) {
      leaf_values(best_l.data(), leaf.data());
      e.set_leaf(l, leaf.data());
      leaf_values(best_r.data(), leaf.data());
      e.set_leaf(l + 1, leaf.data());
    } else if (shape_.subtraction && node_features(seed_of(model), f.tree(l), l) == fs &&
               node_features(seed_of(model), f.tree(l), l + 1) == fs) {
      // The workers compute the lighter child; the heavier one is the parent's minus it.
      e.set_computed(child_weight(best_l.data()) <= child_weight(best_r.data()) ? l + 1 : l, false);
      kept.push_back(n);
      kept_h.push_back(std::move(h));
    }
  }
  Eigen::Index size = 1 + Eigen::Index(kept.size());
  for (const auto& h : kept_h) size += h.size();
  Eigen::VectorXf next(size);
  next[0] = float(kept.size());
  Eigen::Index at = 1 + Eigen::Index(kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) {
    next[Eigen::Index(1 + i)] = float(kept[i]);
    next.segment(at, kept_h[i].size()) = kept_h[i];
    at += kept_h[i].size();
  }
  block_of(model, kParents) = std::move(next);
  st[kLevels] += 1;
  st[kLevel] += 1;
  if (!forest(model).open_nodes().empty()) return;
  st[kTreesComplete] += float(group_);
  if (shape_.server_keeps_complete) move_complete(model);
  if (int(st[kIteration]) >= shape_.iterations) {
    st[kPhase] = kDonePhase;
    return;
  }
  start_group(model);
}

}  // namespace geotrain
