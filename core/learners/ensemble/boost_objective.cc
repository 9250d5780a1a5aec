#include "core/learners/ensemble/boost_objective.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/learners/classifier.h"
#include "core/learners/metrics.h"

namespace geotrain {
namespace {

class Softmax : public BoostObjective {
 public:
  explicit Softmax(int classes) : classes_(classes) {}
  int outputs() const override { return classes_; }
  double gradient_bound() const override { return 1.0; }
  double hessian_bound() const override { return 0.5; }
  double gradients(const Dataset& d, const std::vector<int>&, const std::vector<int>& rows,
                   const Eigen::MatrixXf& scores, Eigen::MatrixXf* g, Eigen::MatrixXf* h) const override {
    // Per row, whatever else is in the batch: a worker's rows get the same values as one worker's.
    *g = scores;
    *h = Eigen::MatrixXf(g->rows(), g->cols());
    double loss = 0;
    // Scalar code: Eigen's vectorised exp and sums would depend on a column's alignment.
    for (Eigen::Index j = 0; j < g->cols(); ++j) {
      float* p = g->col(j).data();
      float top = p[0], sum = 0;
      for (int k = 1; k < classes_; ++k) top = std::max(top, p[k]);
      for (int k = 0; k < classes_; ++k) sum += (p[k] = std::exp(p[k] - top));
      for (int k = 0; k < classes_; ++k) p[k] /= sum;
      const int y = d.y[std::size_t(rows[std::size_t(j)])];
      loss -= std::log(std::max(p[y], 1e-12f));
      for (int k = 0; k < classes_; ++k) (*h)(k, j) = std::max(2.0f * p[k] * (1.0f - p[k]), 1e-6f);
      p[y] -= 1.0f;  // softmax - onehot
    }
    return loss;
  }
  const std::vector<MetricInfo>& metrics() const override { return classifier_metrics(); }
  std::vector<double> evaluate(const Eigen::MatrixXf& scores, const Dataset& test) const override {
    if (scores.cols() == 0) return {0.0, 0.0};
    int right = 0;
    for (Eigen::Index j = 0; j < scores.cols(); ++j) {
      Eigen::Index k;
      scores.col(j).maxCoeff(&k);
      right += int(k) == test.y[std::size_t(j)];
    }
    Eigen::MatrixXf z = scores;
    const double loss = softmax_cross_entropy(z, test.y);
    return {double(right) / double(scores.cols()), loss};
  }

 private:
  int classes_;
};

// The pairs of one query: (better, worse) by grade.
class Pairwise : public BoostObjective {
 public:
  int outputs() const override { return 1; }
  const std::vector<MetricInfo>& metrics() const override { return ranking_metrics(); }
  std::vector<double> evaluate(const Eigen::MatrixXf& scores, const Dataset& test) const override {
    std::vector<float> s(scores.data(), scores.data() + scores.size());
    return {mean_ndcg_at(10, s, test.target, test.query_start)};
  }
  double gradients(const Dataset& d, const std::vector<int>& batch, const std::vector<int>&,
                   const Eigen::MatrixXf& scores, Eigen::MatrixXf* g, Eigen::MatrixXf* h) const override {
    *g = Eigen::MatrixXf::Zero(1, scores.cols());
    *h = Eigen::MatrixXf::Zero(1, scores.cols());
    double loss = 0;
    Eigen::Index at = 0;
    for (int q : batch) {
      const int lo = d.query_start[std::size_t(q)], n = d.query_start[std::size_t(q) + 1] - lo;
      loss += query(scores.data() + at, d.target.data() + lo, n, g->data() + at, h->data() + at);
      at += n;
    }
    return loss;
  }

 protected:
  // One query's loss; adds d/ds and d2/ds2 of each document into g and h.
  virtual double query(const float* s, const float* grade, int n, float* g, float* h) const = 0;
};

class LambdaMart : public Pairwise {
 public:
  double gradient_bound() const override { return 4.0; }
  double hessian_bound() const override { return 4.0; }

 protected:
  double query(const float* s, const float* grade, int n, float* g, float* h) const override {
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [s](int a, int b) { return s[a] > s[b]; });
    std::vector<double> discount(static_cast<std::size_t>(n));
    for (int r = 0; r < n; ++r) discount[std::size_t(order[std::size_t(r)])] = 1.0 / std::log2(double(r) + 2.0);
    std::vector<float> ideal(grade, grade + n);
    std::sort(ideal.begin(), ideal.end(), std::greater<float>());
    double idcg = 0;
    for (int r = 0; r < n; ++r) idcg += (std::exp2(double(ideal[std::size_t(r)])) - 1.0) / std::log2(double(r) + 2.0);
    if (idcg <= 0) return 0.0;
    double loss = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (grade[i] <= grade[j]) continue;
        const double delta = std::abs((std::exp2(double(grade[i])) - std::exp2(double(grade[j]))) *
                                      (discount[std::size_t(i)] - discount[std::size_t(j)])) /
                             idcg;
        const double diff = double(s[i]) - double(s[j]);
        const double rho = 1.0 / (1.0 + std::exp(diff));  // sigma(-(s_i - s_j))
        loss += delta * std::log1p(std::exp(-diff));
        g[i] -= float(rho * delta);
        g[j] += float(rho * delta);
        h[i] += float(rho * (1 - rho) * delta);
        h[j] += float(rho * (1 - rho) * delta);
      }
    return loss;
  }
};

class GbRank : public Pairwise {
 public:
  explicit GbRank(double tau) : tau_(tau) {}
  double gradient_bound() const override { return 8.0; }
  double hessian_bound() const override { return 32.0; }

 protected:
  double query(const float* s, const float* grade, int n, float* g, float* h) const override {
    double loss = 0;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (grade[i] <= grade[j]) continue;
        const double gap = tau_ - (double(s[i]) - double(s[j]));
        if (gap <= 0) continue;  // ranked right by at least tau
        loss += 0.5 * gap * gap;
        g[i] -= float(gap);
        g[j] += float(gap);
        h[i] += 1.0f;
        h[j] += 1.0f;
      }
    return loss;
  }

 private:
  double tau_;
};

}  // namespace

std::unique_ptr<BoostObjective> softmax_objective(int classes) { return std::make_unique<Softmax>(classes); }
std::unique_ptr<BoostObjective> lambdamart_objective() { return std::make_unique<LambdaMart>(); }
std::unique_ptr<BoostObjective> gbrank_objective(double tau) { return std::make_unique<GbRank>(tau); }

}  // namespace geotrain
