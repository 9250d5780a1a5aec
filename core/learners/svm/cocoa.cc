#include "core/learners/svm/cocoa.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace geotrain {
namespace {
// state: rounds applied, sigma' (workers counted in round 0), last gap, last primal, 1 once a gap is known
enum CocoaState : int { kRound, kSigma, kGap, kPrimal, kKnown, kStateSize };
constexpr std::uint64_t kMapSeed = 7;  // the feature map is a fixed part of the model's definition
}  // namespace

struct Cocoa::Rows {
  const Dataset* data = nullptr;
  Eigen::Index columns = 0;
  std::vector<std::int64_t> offset;  // per unit: its first coordinate; units + 1 entries
  std::vector<DualCoord> coords;
  std::vector<float> alpha;  // per coordinate
  std::vector<float> sq;     // per coordinate: |z|^2, NaN until first needed
  std::vector<int> stamp;    // per unit: the round its alphas were last updated in
  Eigen::MatrixXf z;         // dims x rows: phi of each row, filled on first use
  std::vector<char> mapped;
};

Cocoa::Cocoa(std::vector<MetricInfo> metrics, int inputs, int columns, DualLoss loss, CocoaParams cp, double terms,
             double coords_per_unit)
    : metrics_(std::move(metrics)),
      columns_(columns),
      loss_(loss),
      cp_(cp),
      map_(inputs, cp.rff, cp.gamma, kMapSeed),
      terms_(terms),
      coords_per_unit_(coords_per_unit) {
  if (!(cp_.lambda > 0) || !(cp_.passes > 0)) throw std::invalid_argument("cocoa: lambda and passes must be positive");
  if (!(terms_ > 0)) throw std::invalid_argument("cocoa: no loss terms in the training set");
}

std::vector<MetricInfo> Cocoa::with_certificate(const std::vector<MetricInfo>& primary) {
  auto m = primary;
  m.push_back({"duality_gap", false,
               "P(W) - D(alpha) of the previous round's model, averaged over the outputs (a bound on its "
               "distance from the optimum's objective)"});
  m.push_back({"primal_objective", false, "lambda/2 |w|^2 + mean training loss, averaged over the outputs"});
  return m;
}

ParamSet Cocoa::init(std::uint64_t) const {
  Eigen::VectorXf state = Eigen::VectorXf::Zero(kStateSize);
  state[kSigma] = 1;
  return {{kWeights, Eigen::VectorXf::Zero(Eigen::Index(map_.dims()) * columns_)}, {kState, state}};
}

std::vector<BlockRule> Cocoa::block_rules() const {
  return {{kDelta, Merge::kSum, 1, 0, Precision::kExact},
          {kPieces, Merge::kSum, 1, 0, Precision::kExact},
          {kCount, Merge::kSum, 1, 0, Precision::kExact}};
}

double Cocoa::train_flops_per_sample() const {
  // per coordinate: a dot product for the gap, then per pass a dot product and two updates
  return coords_per_unit_ * 2.0 * map_.dims() * (1.0 + 3.0 * cp_.passes);
}

Cocoa::Rows& Cocoa::rows(const Dataset& d) const {
  std::lock_guard<std::mutex> lock(rows_mutex_);
  if (rows_ && rows_->data == &d && rows_->columns == d.x.cols()) return *rows_;
  auto r = std::make_shared<Rows>();
  r->data = &d;
  r->columns = d.x.cols();
  const int units = d.size();
  r->offset.reserve(std::size_t(units) + 1);
  for (int u = 0; u < units; ++u) {
    r->offset.push_back(std::int64_t(r->coords.size()));
    coords_of(d, u, &r->coords);
  }
  r->offset.push_back(std::int64_t(r->coords.size()));
  r->alpha.assign(r->coords.size(), 0.0f);
  r->sq.assign(r->coords.size(), std::numeric_limits<float>::quiet_NaN());
  r->stamp.assign(std::size_t(units), -1);
  r->z.resize(map_.dims(), d.x.cols());  // untouched pages cost nothing: only this worker's rows get filled
  r->mapped.assign(std::size_t(d.x.cols()), 0);
  rows_ = r;
  return *rows_;
}

LearnerFootprint Cocoa::footprint(const ParamSet& initial, std::int64_t train_rows) const {
  LearnerFootprint f = Learner::footprint(initial, train_rows);
  f.update_floats += 2 * std::uint64_t(columns_) + 1;  // the duality gap's pieces and the count beside the change
  f.update_blocks = 3;
  f.fixed_bytes =
      sizeof(float) * (std::uint64_t(map_.rff()) * std::uint64_t(map_.inputs()) + std::uint64_t(map_.rff()));
  // The mapped row (touched only for the worker's own rows), and per loss term an alpha, a norm and a coordinate.
  f.per_row_bytes =
      sizeof(float) * std::uint64_t(map_.dims()) + std::uint64_t(coords_per_unit_ * (8 + sizeof(DualCoord))) + 2;
  return f;
}

double Cocoa::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64& rng,
                           ParamSet* update) const {
  const auto& state = block_of(p, kState);
  const int round = int(state[kRound]);
  update->clear();   // blocks in key order (the wire format's)
  if (round == 0) {  // the census
    update->push_back({kCount, Eigen::VectorXf::Ones(1)});
    return 0;
  }
  Rows& r = rows(d);
  const int dims = map_.dims();
  auto mapped = [&](int row) {
    if (!r.mapped[std::size_t(row)]) {
      map_.map(d.x.col(row).data(), r.z.col(row).data());
      r.mapped[std::size_t(row)] = 1;
    }
    return r.z.col(row).data();
  };
  std::vector<std::int64_t> ids;
  for (int u : batch) {
    const auto lo = r.offset[std::size_t(u)], hi = r.offset[std::size_t(u) + 1];
    // a new run (round 1) or a rolled-back model (a round already seen): the alphas start again from zero
    if (round == 1 || r.stamp[std::size_t(u)] >= round) std::fill(r.alpha.begin() + lo, r.alpha.begin() + hi, 0.0f);
    r.stamp[std::size_t(u)] = round;
    for (auto i = lo; i < hi; ++i) ids.push_back(i);
  }
  Eigen::VectorXf scratch(dims);
  auto input = [&](std::int64_t i) -> const float* {
    const DualCoord& c = r.coords[std::size_t(i)];
    if (c.minus_row < 0) return mapped(c.row);
    const Eigen::Map<const Eigen::VectorXf> a(mapped(c.row), dims), b(mapped(c.minus_row), dims);
    scratch = a - b;
    return scratch.data();
  };
  const Eigen::Map<const Eigen::MatrixXf> w(block_of(p, kWeights).data(), dims, columns_);
  Eigen::VectorXf pieces = Eigen::VectorXf::Zero(2 * columns_);
  double loss_sum = 0;
  {
    std::vector<double> loss(std::size_t(columns_), 0.0), dual(std::size_t(columns_), 0.0);
    for (auto i : ids) {
      const DualCoord& c = r.coords[std::size_t(i)];
      const float pred = Eigen::Map<const Eigen::VectorXf>(input(i), dims).dot(w.col(c.column));
      loss[std::size_t(c.column)] += loss_.loss(pred, c.label);
      dual[std::size_t(c.column)] += loss_.piece(r.alpha[std::size_t(i)], c.label);
    }
    for (int c = 0; c < columns_; ++c) {
      pieces[c] = float(loss[std::size_t(c)]);
      pieces[columns_ + c] = float(dual[std::size_t(c)]);
      loss_sum += loss[std::size_t(c)];
    }
  }
  // Local SDCA on the CoCoA+ subproblem: v = W + sigma' dW, each step scaled by sigma'.
  const double sigma = state[kSigma], scale = 1.0 / (cp_.lambda * terms_);
  Eigen::MatrixXf v = w, dw = Eigen::MatrixXf::Zero(dims, columns_);
  const auto steps = std::int64_t(std::llround(cp_.passes * double(ids.size())));
  std::vector<std::int64_t> order;
  for (std::int64_t s = 0; s < steps; ++s) {
    const auto at = std::size_t(s % std::int64_t(ids.size()));
    if (at == 0) {  // a new pass: a fresh random order
      order = ids;
      std::shuffle(order.begin(), order.end(), rng);
    }
    const auto i = order[at];
    const DualCoord& c = r.coords[std::size_t(i)];
    const Eigen::Map<const Eigen::VectorXf> z(input(i), dims);
    float& sq = r.sq[std::size_t(i)];
    if (std::isnan(sq)) sq = z.squaredNorm();
    float& a = r.alpha[std::size_t(i)];
    const float next = loss_.step(a, c.label, z.dot(v.col(c.column)), float(sigma * sq * scale));
    const float delta = next - a;
    if (delta == 0.0f) continue;
    a = next;
    dw.col(c.column) += float(delta * scale) * z;
    v.col(c.column) += float(sigma * delta * scale) * z;
  }
  update->push_back({kDelta, Eigen::Map<Eigen::VectorXf>(dw.data(), dw.size())});
  update->push_back({kPieces, pieces});
  update->push_back({kCount, Eigen::VectorXf::Ones(1)});
  return ids.empty() ? 0.0 : loss_sum / double(ids.size());
}

void Cocoa::apply(ParamSet& model, const ParamSet& merged, int) const {
  auto& state = block_of(model, kState);
  if (state[kRound] == 0) {  // the census: the workers counted themselves
    state[kSigma] = std::max(1.0f, block_of(merged, kCount)[0]);
    state[kRound] = 1;
    return;
  }
  auto& wv = block_of(model, kWeights);
  const Eigen::Map<Eigen::MatrixXf> w(wv.data(), map_.dims(), columns_);
  const auto& pieces = block_of(merged, kPieces);
  double gap = 0, primal = 0;
  for (int c = 0; c < columns_; ++c) {
    const double norm = w.col(c).squaredNorm(), reg = cp_.lambda / 2 * norm;
    const double p = pieces[c] / terms_ + reg, dual = pieces[columns_ + c] / terms_ - reg;
    gap += p - dual;
    primal += p;
  }
  state[kGap] = float(gap / columns_);
  state[kPrimal] = float(primal / columns_);
  state[kKnown] = 1;
  wv += block_of(merged, kDelta);
  state[kRound] += 1;
}

Eigen::MatrixXf Cocoa::scores(const ParamSet& p, const Eigen::MatrixXf& x) const {
  const Eigen::Map<const Eigen::MatrixXf> w(block_of(p, kWeights).data(), map_.dims(), columns_);
  return w.transpose() * map_.map(x);
}

void Cocoa::append_certificate(const ParamSet& p, std::vector<double>* out) const {
  const auto& state = block_of(p, kState);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  out->push_back(state[kKnown] != 0 ? double(state[kGap]) : nan);
  out->push_back(state[kKnown] != 0 ? double(state[kPrimal]) : nan);
}

}  // namespace geotrain
