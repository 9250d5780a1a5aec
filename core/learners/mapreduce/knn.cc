#include "core/learners/mapreduce/knn.h"

#include <algorithm>
#include <array>
#include <limits>
#include <stdexcept>

namespace geotrain {
namespace {
enum KnnState : int { kKnnNext, kKnnCount, kKnnStateSize };  // next: first query of the batch; count: in it
}

Knn::Knn(const Dataset& test, int k, int query_batch)
    : test_(test), k_(k), batch_(query_batch), features_(test.features()), classes_(test.classes) {
  if (!test.labelled()) throw std::invalid_argument("knn: needs labelled data");
}

const std::vector<MetricInfo>& Knn::static_metrics() {
  static const std::vector<MetricInfo> m = {
      {"test_accuracy", true,
       "accuracy of the majority vote of the k nearest training samples, over the test "
       "queries answered so far"},
      {"queries", true, "test queries answered"}};
  return m;
}

void Knn::load_batch(ParamSet& model, int first) const {
  Eigen::VectorXf& st = block_of(model, kState);
  Eigen::VectorXf& q = block_of(model, kQueries);
  const int n = std::max(0, std::min<int>(batch_, int(test_.x.cols()) - first));
  q.setZero();
  for (int j = 0; j < n; ++j) q.segment(Eigen::Index(j) * features_, features_) = test_.x.col(first + j);
  st[kKnnNext] = float(first);
  st[kKnnCount] = float(n);
}

ParamSet Knn::init(std::uint64_t) const {
  ParamSet p = {{kState, Eigen::VectorXf::Zero(kKnnStateSize)},
                {kQueries, Eigen::VectorXf::Zero(Eigen::Index(batch_) * features_)},
                {kPredictions, Eigen::VectorXf::Constant(test_.x.cols(), -1.0f)}};
  load_batch(p, 0);
  return p;
}

LearnerFootprint Knn::footprint(const ParamSet& initial, std::int64_t train_rows) const {
  LearnerFootprint f = Learner::footprint(initial, train_rows);
  f.update_floats = std::uint64_t(batch_) * 3 * std::uint64_t(k_);
  f.update_blocks = std::uint64_t(batch_);
  return f;
}

std::vector<BlockRule> Knn::block_rules() const {
  std::vector<BlockRule> r;
  for (int j = 0; j < batch_; ++j)
    r.push_back({kCandidates + std::uint32_t(j), Merge::kKSmallest, 3, std::uint32_t(k_), Precision::kExact});
  return r;
}

bool Knn::finished(const ParamSet& p) const { return block_of(p, kState)[kKnnCount] == 0; }

std::vector<Eigen::VectorXf> Knn::nearest(const float* queries, int n, const Dataset& train,
                                          const std::vector<int>& rows) const {
  using Cand = std::array<float, 3>;
  // Aligned copies: a distance's vectorised sum then depends on the values only, not on where a query sits.
  std::vector<Eigen::VectorXf> q;
  for (int j = 0; j < n; ++j)
    q.push_back(Eigen::Map<const Eigen::VectorXf>(queries + Eigen::Index(j) * features_, features_));
  std::vector<std::vector<Cand>> c(static_cast<std::size_t>(n));
  for (auto& v : c) v.reserve(rows.size());
  for (int r : rows) {  // row by row: each training row is read once for every query of the batch
    const auto x = train.x.col(r);
    const float y = float(train.y[std::size_t(r)]);
    for (int j = 0; j < n; ++j) c[std::size_t(j)].push_back({(q[std::size_t(j)] - x).squaredNorm(), y, float(r)});
  }
  std::vector<Eigen::VectorXf> out;
  for (auto& v : c) {
    const std::size_t keep = std::min<std::size_t>(std::size_t(k_), v.size());
    std::partial_sort(v.begin(), v.begin() + std::ptrdiff_t(keep), v.end());
    Eigen::VectorXf o = Eigen::VectorXf::Constant(3 * k_, std::numeric_limits<float>::infinity());
    for (std::size_t i = 0; i < keep; ++i) std::copy(v[i].begin(), v[i].end(), o.data() + 3 * i);
    out.push_back(std::move(o));
  }
  return out;
}

int Knn::vote(const float* c) const {
  std::vector<int> votes(std::size_t(classes_), 0), first(std::size_t(classes_), k_);
  for (int i = 0; i < k_ && c[3 * i] < std::numeric_limits<float>::infinity(); ++i) {
    const auto y = std::size_t(c[3 * i + 1]);
    if (votes[y]++ == 0) first[y] = i;
  }
  int best = -1;  // the most votes; of tied labels, the one with the nearer candidate
  for (int y = 0; y < classes_; ++y)
    if (votes[std::size_t(y)] > 0 &&
        (best < 0 || votes[std::size_t(y)] > votes[std::size_t(best)] ||
         (votes[std::size_t(y)] == votes[std::size_t(best)] && first[std::size_t(y)] < first[std::size_t(best)])))
      best = y;
  return best;
}

double Knn::local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64&,
                         ParamSet* update) const {
  update->clear();
  const int n = int(block_of(p, kState)[kKnnCount]);
  const Eigen::VectorXf& q = block_of(p, kQueries);
  std::vector<Eigen::VectorXf> found = nearest(q.data(), n, train, batch);
  for (int j = 0; j < batch_; ++j)
    update->push_back({kCandidates + std::uint32_t(j),
                       j < n ? std::move(found[std::size_t(j)])
                             : Eigen::VectorXf::Constant(3 * k_, std::numeric_limits<float>::infinity())});
  return 0.0;
}

void Knn::apply(ParamSet& model, const ParamSet& merged, int) const {
  const Eigen::VectorXf& st = block_of(model, kState);
  const int first = int(st[kKnnNext]), n = int(st[kKnnCount]);
  Eigen::VectorXf& pred = block_of(model, kPredictions);
  for (int j = 0; j < n; ++j) pred[first + j] = float(vote(block_of(merged, kCandidates + std::uint32_t(j)).data()));
  load_batch(model, first + n);
}

std::vector<double> Knn::evaluate(const ParamSet& p, const Dataset& test) const {
  const Eigen::VectorXf& pred = block_of(p, kPredictions);
  int answered = 0, right = 0;
  for (Eigen::Index i = 0; i < pred.size() && i < test.x.cols(); ++i)
    if (pred[i] >= 0) ++answered, right += int(pred[i]) == test.y[std::size_t(i)];
  return {answered ? double(right) / answered : 0.0, double(answered)};
}

}  // namespace geotrain
