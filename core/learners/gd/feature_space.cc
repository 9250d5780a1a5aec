#include "core/learners/gd/feature_space.h"

#include <cmath>
#include <stdexcept>

#include "core/payload/params_file.h"

namespace geotrain {
namespace {
int hidden_size(const ParamSet& p, int inputs, const std::string& path) {
  if (p.size() != 4 || inputs <= 0 || p[0].values.size() % inputs != 0 || p[1].values.size() == 0 ||
      p[0].values.size() / inputs != p[1].values.size() || p[2].values.size() % p[1].values.size() != 0 ||
      p[2].values.size() / p[1].values.size() != p[3].values.size())
    throw std::runtime_error(path + ": not an MLP " + std::to_string(inputs) +
                             " -> hidden -> classes (run scripts/train_feature_classifier.sh)");
  return int(p[1].values.size());
}

// Mean and covariance (double precision) of the columns of f.
void moments(const Eigen::MatrixXf& f, Eigen::VectorXd* mean, Eigen::MatrixXd* cov) {
  const Eigen::MatrixXd d = f.cast<double>();
  *mean = d.rowwise().mean();
  const Eigen::MatrixXd c = d.colwise() - *mean;
  *cov = c * c.transpose() / double(std::max<Eigen::Index>(1, d.cols() - 1));
}
}  // namespace

FeatureSpace::FeatureSpace(const std::string& path, int inputs)
    : p_(read_params_file(path)),
      hidden_({inputs, hidden_size(p_, inputs, path)}, {Act::kRelu}),
      full_({inputs, int(p_[1].values.size()), int(p_[3].values.size())}, {Act::kRelu, Act::kLinear}) {}

Eigen::MatrixXf FeatureSpace::features(const Eigen::MatrixXf& x) const { return hidden_.forward(p_, x); }

Eigen::MatrixXf FeatureSpace::probabilities(const Eigen::MatrixXf& x) const {
  Eigen::MatrixXf z = full_.forward(p_, x);
  for (Eigen::Index c = 0; c < z.cols(); ++c) {
    auto col = z.col(c);
    col.array() -= col.maxCoeff();
    col = col.array().exp();
    col /= col.sum();
  }
  return z;
}

double frechet_distance(const Eigen::MatrixXf& a, const Eigen::MatrixXf& b) {
  Eigen::VectorXd ma, mb;
  Eigen::MatrixXd sa, sb;
  moments(a, &ma, &sa);
  moments(b, &mb, &sb);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> ea(sa);
  const Eigen::MatrixXd root_a =
      ea.eigenvectors() * ea.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal() * ea.eigenvectors().transpose();
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> em(root_a * sb * root_a);
  const double cross = em.eigenvalues().cwiseMax(0.0).cwiseSqrt().sum();
  return (ma - mb).squaredNorm() + sa.trace() + sb.trace() - 2.0 * cross;
}

double inception_score(const Eigen::MatrixXf& p) {
  const Eigen::VectorXd marginal = p.cast<double>().rowwise().mean();
  double kl = 0;
  for (Eigen::Index i = 0; i < p.cols(); ++i)
    for (Eigen::Index c = 0; c < p.rows(); ++c) {
      const double q = p(c, i);
      if (q > 1e-12) kl += q * (std::log(q) - std::log(std::max(marginal[c], 1e-12)));
    }
  return std::exp(kl / double(std::max<Eigen::Index>(1, p.cols())));
}

}  // namespace geotrain
