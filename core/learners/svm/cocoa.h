// Support-vector learners on the parameter-server pattern, trained by
// distributed dual coordinate ascent in the CoCoA+ style (Ma et al. 2015,
// "Adding vs. Averaging in Distributed Primal-Dual Optimization"). The primal
// is min_W sum over outputs c of lambda/2 |w_c|^2 + 1/n sum_i loss(w_c . z_i)
// (z = phi(x), core/learners/svm/feature_map.h; the losses in dual_loss.h), one
// dual variable alpha_i per loss term ("coordinate"), W = 1/(lambda n) sum_i
// alpha_i z_i.
//
// The dual variables of a worker's shard are that worker's: they never travel.
// A round: each worker pulls W, runs `passes` passes of SDCA over its shard's
// coordinates on the local subproblem with the safe scaling sigma' = K (the
// number of workers), and pushes the change of W its alphas make; the changes
// add (CoCoA+ adding, gamma = 1) at the global server, so W = A alpha stays
// exact, and local work per round (`passes`, like local SGD's h) trades
// computation for WAN rounds. Round 0 is a census: each worker pushes a count,
// and the sum is K. With the change, each worker pushes its shard's share of
// the primal loss and the dual objective at the pulled W, from which the
// global server computes the duality gap P(W) - D(alpha) of that round's model
// (the `duality_gap` metric: a certificate of how far from optimal W is, one
// round behind the model).
//
// A round's batch must be the worker's whole shard (a batch_size of at least the
// shard) for the gap to cover every term. Each round merges every worker's
// answer to the same W, exactly: bsp, lossless codecs only. The alphas live
// in the learner, keyed by row, one worker's rows per worker; a restored
// checkpoint rolls W back but not the alphas, which then restart from zero on
// the next round (W is then no longer A alpha and the gap is no certificate:
// known limit).
#pragma once
#include <memory>
#include <mutex>
#include <vector>

#include "core/learners/learner.h"
#include "core/learners/svm/dual_loss.h"
#include "core/learners/svm/feature_map.h"

namespace geotrain {

struct CocoaParams {
  double lambda = 1e-4;
  double passes = 1.0;  // SDCA passes over the shard's coordinates per round (fractions allowed)
  int rff = 0;          // random Fourier features; 0: linear
  double gamma = 1.0;   // their RBF kernel's width
};

// One loss term: its input z = phi(row) - phi(minus_row) (minus_row < 0: phi(row)), its output, its label.
struct DualCoord {
  int row = 0;
  int minus_row = -1;
  int column = 0;
  float label = 1.0f;
};

class Cocoa : public Learner {
 public:
  enum Key : std::uint32_t { kWeights = 0, kState = 1, kDelta = 10, kPieces = 11, kCount = 12 };
  ParamSet init(std::uint64_t seed) const override;
  std::vector<BlockRule> block_rules() const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  void apply(ParamSet& model, const ParamSet& merged, int contributors) const override;
  double train_flops_per_sample() const override;
  // Updates: the weights' change and the gap's pieces; per row the mapped features and its dual variable.
  LearnerFootprint footprint(const ParamSet& initial, std::int64_t train_rows) const override;
  const std::vector<MetricInfo>& metrics() const override { return metrics_; }

  // `primary` then duality_gap and primal_objective.
  static std::vector<MetricInfo> with_certificate(const std::vector<MetricInfo>& primary);

 protected:
  // metrics: with_certificate(the learner's own); terms: loss terms per output (n); coords_per_unit: loss terms
  // of a unit, on average (for the compute model).
  Cocoa(std::vector<MetricInfo> metrics, int inputs, int columns, DualLoss loss, CocoaParams cp, double terms,
        double coords_per_unit);
  // The loss terms of unit `unit` of d (a sample, or a query's document pairs), appended to *out.
  virtual void coords_of(const Dataset& d, int unit, std::vector<DualCoord>* out) const = 0;
  // W^T phi(x): columns x samples.
  Eigen::MatrixXf scores(const ParamSet& p, const Eigen::MatrixXf& x) const;
  // evaluate()'s tail: the duality gap and primal objective of the state block (NaN before the first).
  void append_certificate(const ParamSet& p, std::vector<double>* out) const;

 private:
  struct Rows;
  Rows& rows(const Dataset& d) const;  // this dataset's coordinates, alphas and mapped rows
  std::vector<MetricInfo> metrics_;
  int columns_;
  DualLoss loss_;
  CocoaParams cp_;
  FeatureMap map_;
  double terms_, coords_per_unit_;
  mutable std::mutex rows_mutex_;
  mutable std::shared_ptr<Rows> rows_;
};

}  // namespace geotrain
