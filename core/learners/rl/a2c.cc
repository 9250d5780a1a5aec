#include "core/learners/rl/a2c.h"

#include <cmath>

#include "core/learners/rl/cartpole.h"

namespace geotrain {
namespace {
constexpr float kValueScale = 100.0f;  // the critic predicts G / 100: returns reach ~100 at gamma 0.99
constexpr std::uint64_t kEvalSeedBase = 1'000'000'007ULL;

Eigen::VectorXf as_vector(const CartPole::State& s) { return Eigen::Vector4f(s[0], s[1], s[2], s[3]); }
}  // namespace

A2c::A2c(A2cParams p)
    : p_(p),
      actor_({4, p.hidden, 2}, {Act::kTanh, Act::kLinear}, 0),
      critic_({4, p.hidden, 1}, {Act::kTanh, Act::kLinear}, 4) {}

const std::vector<MetricInfo>& A2c::static_metrics() {
  static const std::vector<MetricInfo> m = {
      {"mean_return", true, "the greedy policy's mean episode return over the evaluation episodes (at most 500)"}};
  return m;
}

ParamSet A2c::init(std::uint64_t seed) const { return init_networks(seed, {&actor_, &critic_}); }

double A2c::train_flops_per_sample() const {
  return 200 * (actor_.train_flops_per_sample() + critic_.train_flops_per_sample());
}

double A2c::local_update(const ParamSet& p, const Dataset&, const std::vector<int>& batch, std::mt19937_64& rng,
                         ParamSet* update) const {
  *update = zeros_like(p);
  std::vector<Eigen::VectorXf> states;
  std::vector<int> actions;
  std::vector<float> returns;
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (std::size_t e = 0; e < batch.size(); ++e) {
    CartPole env(rng());
    const std::size_t first = states.size();
    bool running = true;
    while (running) {
      const Eigen::VectorXf s = as_vector(env.state());
      const Eigen::MatrixXf z = actor_.forward(p, s);
      const float p1 = 1.0f / (1.0f + std::exp(z(0, 0) - z(1, 0)));  // softmax's probability of action 1
      const int a = u(rng) < p1 ? 1 : 0;
      states.push_back(s);
      actions.push_back(a);
      running = env.step(a);
    }
    returns.resize(states.size());
    float g = 0;
    for (std::size_t t = states.size(); t-- > first;) returns[t] = g = 1.0f + float(p_.gamma) * g;
  }
  const Eigen::Index n = Eigen::Index(states.size());
  Eigen::MatrixXf x(4, n);
  for (Eigen::Index t = 0; t < n; ++t) x.col(t) = states[std::size_t(t)];
  DenseNet::Tape at, ct;
  const Eigen::MatrixXf z = actor_.forward(p, x, &at);
  const Eigen::MatrixXf v = critic_.forward(p, x, &ct);
  Eigen::VectorXf adv(n);
  for (Eigen::Index t = 0; t < n; ++t) adv[t] = returns[std::size_t(t)] - kValueScale * v(0, t);
  const float mean = adv.mean();
  const float sd = std::sqrt((adv.array() - mean).square().mean()) + 1e-6f;
  adv = (adv.array() - mean) / sd;
  Eigen::MatrixXf dz(2, n), dv(1, n);
  double loss = 0;
  const float inv = 1.0f / float(n), beta = float(p_.entropy_weight), vw = float(p_.value_weight);
  for (Eigen::Index t = 0; t < n; ++t) {
    const float mx = std::max(z(0, t), z(1, t));
    const float e0 = std::exp(z(0, t) - mx), e1 = std::exp(z(1, t) - mx);
    const float pi[2] = {e0 / (e0 + e1), e1 / (e0 + e1)};
    const int a = actions[std::size_t(t)];
    const float logp[2] = {std::log(std::max(pi[0], 1e-12f)), std::log(std::max(pi[1], 1e-12f))};
    const float h = -(pi[0] * logp[0] + pi[1] * logp[1]);
    const float target = returns[std::size_t(t)] / kValueScale;
    loss += double(-logp[a] * adv[t] + 0.5f * vw * (v(0, t) - target) * (v(0, t) - target) - beta * h);
    for (int k = 0; k < 2; ++k)  // d/dz of -log pi(a) A - beta H
      dz(k, t) = inv * ((pi[k] - (k == a ? 1.0f : 0.0f)) * adv[t] + beta * pi[k] * (logp[k] + h));
    dv(0, t) = inv * vw * (v(0, t) - target);
  }
  actor_.backward(p, at, std::move(dz), update);
  critic_.backward(p, ct, std::move(dv), update);
  return loss * inv;
}

int A2c::greedy_return(const ParamSet& p, int episode) const {
  CartPole env(kEvalSeedBase + std::uint64_t(episode));
  bool running = true;
  while (running) {
    const Eigen::MatrixXf z = actor_.forward(p, as_vector(env.state()));
    running = env.step(z(1, 0) > z(0, 0) ? 1 : 0);
  }
  return env.steps();
}

std::vector<double> A2c::evaluate(const ParamSet& p, const Dataset& test) const {
  double sum = 0;
  for (Eigen::Index e = 0; e < test.x.cols(); ++e) sum += greedy_return(p, int(e));
  return {test.x.cols() ? sum / double(test.x.cols()) : 0.0};
}

}  // namespace geotrain
