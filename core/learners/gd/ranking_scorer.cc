#include "core/learners/gd/ranking_scorer.h"

#include "core/learners/metrics.h"

namespace geotrain {
namespace {
std::vector<int> scorer_sizes(int features, const std::vector<int>& hidden) {
  std::vector<int> s{features};
  s.insert(s.end(), hidden.begin(), hidden.end());
  s.push_back(1);
  return s;
}
std::vector<Act> scorer_acts(const std::vector<int>& hidden) {
  std::vector<Act> a(hidden.size(), Act::kRelu);
  a.push_back(Act::kLinear);
  return a;
}
}  // namespace

RankingScorer::RankingScorer(int features, const std::vector<int>& hidden)
    : net_(scorer_sizes(features, hidden), scorer_acts(hidden)) {}

const std::vector<MetricInfo>& RankingScorer::static_metrics() { return ranking_metrics(); }

ParamSet RankingScorer::init(std::uint64_t seed) const { return init_networks(seed, {&net_}); }

double RankingScorer::local_update(const ParamSet& p, const Dataset& d, const std::vector<int>& batch, std::mt19937_64&,
                                   ParamSet* update) const {
  *update = zeros_like(p);
  int docs = 0;
  for (int q : batch) docs += d.query_start[std::size_t(q) + 1] - d.query_start[std::size_t(q)];
  Eigen::MatrixXf x(d.features(), docs);
  std::vector<float> grades;
  grades.reserve(std::size_t(docs));
  int c = 0;
  for (int q : batch)
    for (int k = d.query_start[std::size_t(q)]; k < d.query_start[std::size_t(q) + 1]; ++k, ++c) {
      x.col(c) = d.x.col(k);
      grades.push_back(d.target[std::size_t(k)]);
    }
  DenseNet::Tape tape;
  const Eigen::MatrixXf s = net_.forward(p, x, &tape);
  Eigen::MatrixXf ds = Eigen::MatrixXf::Zero(1, docs);
  double loss = 0, terms = 0;
  c = 0;
  for (int q : batch) {
    const int n = d.query_start[std::size_t(q) + 1] - d.query_start[std::size_t(q)];
    double t = 0;
    loss += query_loss(s.data() + c, grades.data() + c, n, ds.data() + c, &t);
    terms += t;
    c += n;
  }
  if (terms <= 0) return 0;
  ds /= float(terms);
  net_.backward(p, tape, std::move(ds), update);
  return loss / terms;
}

double RankingScorer::train_flops_per_sample() const { return 20 * net_.train_flops_per_sample(); }

std::vector<float> RankingScorer::scores(const ParamSet& p, const Dataset& d) const {
  const Eigen::MatrixXf s = net_.forward(p, d.x);
  return std::vector<float>(s.data(), s.data() + s.size());
}

std::vector<double> RankingScorer::evaluate(const ParamSet& p, const Dataset& d) const {
  return {mean_ndcg_at(10, scores(p, d), d.target, d.query_start)};
}

}  // namespace geotrain
