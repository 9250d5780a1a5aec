#include "core/learners/online/ftrl.h"

#include <cmath>

#include "core/learners/classifier.h"

namespace geotrain {
namespace {
// state: samples learned from, progressive loss sum, progressive right answers, server steps
enum OnlineState : int { kOnSeen, kOnLoss, kOnRight, kOnSteps, kOnStateSize };
using Weights = Eigen::Map<const Eigen::MatrixXf>;  // classes x (features + 1): the last column the bias
}  // namespace

OnlineLinear::OnlineLinear(int features, int classes, int train_samples, OnlineParams op)
    : features_(features), classes_(classes), train_(train_samples), op_(op) {}

const std::vector<MetricInfo>& OnlineLinear::static_metrics() {
  static const std::vector<MetricInfo> m = {
      {"test_accuracy", true, "test-set accuracy of the current weights"},
      {"progressive_accuracy", true, "accuracy on each arriving batch before learning from it, over the stream so far"},
      {"progressive_loss", false,
       "cross-entropy on each arriving batch before learning from it, over the stream so far"},
      {"nonzero_fraction", false, "fraction of the weights that are not zero"}};
  return m;
}

ParamSet OnlineLinear::init(std::uint64_t) const {
  const Eigen::Index n = Eigen::Index(classes_) * (features_ + 1);
  return {{kWeights, Eigen::VectorXf::Zero(n)},
          {kState, Eigen::VectorXf::Zero(kOnStateSize)},
          {kZ, Eigen::VectorXf::Zero(n)},
          {kN, Eigen::VectorXf::Zero(n)},
          {kD, Eigen::VectorXf::Zero(n)}};
}

std::vector<BlockRule> OnlineLinear::block_rules() const {
  return {{kGrad, Merge::kSum, 1, 0, Precision::kAny}, {kScores, Merge::kSum, 1, 0, Precision::kRounding}};
}

bool OnlineLinear::finished(const ParamSet& p) const { return block_of(p, kState)[kOnSeen] >= float(train_); }

double OnlineLinear::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64&,
                                  ParamSet* update) const {
  const Weights w(block_of(p, kWeights).data(), classes_, features_ + 1);
  Eigen::MatrixXf x;
  std::vector<int> y;
  gather(d, batch, &x, &y);
  Eigen::MatrixXf z = w.leftCols(features_) * x;
  z.colwise() += w.col(features_);
  int right = 0;
  for (Eigen::Index j = 0; j < z.cols(); ++j) {
    Eigen::Index k;
    z.col(j).maxCoeff(&k);
    right += int(k) == y[std::size_t(j)];
  }
  const double loss = softmax_cross_entropy(z, y);  // z: the mean gradient wrt the scores
  z *= float(z.cols());                             // summed over the batch
  Eigen::MatrixXf g(classes_, features_ + 1);
  g.leftCols(features_) = z * x.transpose();
  g.col(features_) = z.rowwise().sum();
  update->clear();
  update->push_back({kGrad, Eigen::Map<Eigen::VectorXf>(g.data(), g.size())});
  Eigen::VectorXf s(3);
  s << float(batch.size()), float(loss * double(batch.size())), float(right);
  update->push_back({kScores, s});
  return loss;
}

void OnlineLinear::apply(ParamSet& model, const ParamSet& merged, int) const {
  const Eigen::VectorXf& s = block_of(merged, kScores);
  Eigen::VectorXf& st = block_of(model, kState);
  st[kOnSeen] += s[0];
  st[kOnLoss] += s[1];
  st[kOnRight] += s[2];
  st[kOnSteps] += 1;
  if (s[0] <= 0) return;
  const Eigen::VectorXf g = block_of(merged, kGrad) / s[0];  // the mean gradient of the round's samples
  Eigen::VectorXf& w = block_of(model, kWeights);
  Eigen::VectorXf& zz = block_of(model, kZ);
  Eigen::VectorXf& nn = block_of(model, kN);
  Eigen::VectorXf& dd = block_of(model, kD);
  const double t = st[kOnSteps];
  for (Eigen::Index i = 0; i < w.size(); ++i) {
    const double gi = g[i];
    if (!op_.ftml) {  // FTRL-Proximal, per coordinate
      const double n = nn[i], sigma = (std::sqrt(n + gi * gi) - std::sqrt(n)) / op_.alpha;
      zz[i] = float(zz[i] + gi - sigma * w[i]);
      nn[i] = float(n + gi * gi);
      const double zi = zz[i];
      w[i] =
          std::abs(zi) <= op_.l1
              ? 0.0f
              : float(-(zi - std::copysign(op_.l1, zi)) / ((op_.beta + std::sqrt(double(nn[i]))) / op_.alpha + op_.l2));
    } else {  // FTML: v in n, the previous d in d
      const double v = op_.beta2 * nn[i] + (1 - op_.beta2) * gi * gi;
      const double d = (1 - std::pow(op_.beta1, t)) / op_.eta * (std::sqrt(v / (1 - std::pow(op_.beta2, t))) + op_.eps);
      const double sigma = d - op_.beta1 * dd[i];
      zz[i] = float(op_.beta1 * zz[i] + (1 - op_.beta1) * gi - sigma * w[i]);
      nn[i] = float(v);
      dd[i] = float(d);
      w[i] = float(-zz[i] / d);
    }
  }
}

std::vector<double> OnlineLinear::evaluate(const ParamSet& p, const Dataset& test) const {
  const Weights w(block_of(p, kWeights).data(), classes_, features_ + 1);
  int right = 0;
  for (Eigen::Index j0 = 0; j0 < test.x.cols(); j0 += 1000) {
    const Eigen::Index n = std::min<Eigen::Index>(1000, test.x.cols() - j0);
    Eigen::MatrixXf z = w.leftCols(features_) * test.x.middleCols(j0, n);
    z.colwise() += w.col(features_);
    for (Eigen::Index j = 0; j < n; ++j) {
      Eigen::Index k;
      z.col(j).maxCoeff(&k);
      right += int(k) == test.y[std::size_t(j0 + j)];
    }
  }
  const Eigen::VectorXf& st = block_of(p, kState);
  const Eigen::VectorXf& wv = block_of(p, kWeights);
  const double seen = std::max(1.0f, st[kOnSeen]);
  return {test.x.cols() ? double(right) / double(test.x.cols()) : 0.0, st[kOnRight] / seen, st[kOnLoss] / seen,
          double((wv.array() != 0).count()) / double(wv.size())};
}

}  // namespace geotrain
