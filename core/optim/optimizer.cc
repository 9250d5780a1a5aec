#include "core/optim/optimizer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace geotrain {

double lr_at(const OptimizerSpec& s, std::int64_t step) {
  if (s.decay_steps <= 0) return s.lr;
  const double f = std::min(1.0, double(step) / double(s.decay_steps));
  return s.lr * (1.0 - (1.0 - s.decay_to) * f);
}

namespace {

class Sgd : public Optimizer {
 public:
  explicit Sgd(OptimizerSpec s) : s_(s) {}
  void apply(ParamSet& p, const ParamSet& g) override {
    const float lr = float(lr_at(s_, t_++));
    for (std::size_t i = 0; i < p.size(); ++i) p[i].values -= lr * (g[i].values + float(s_.weight_decay) * p[i].values);
  }
  OptimizerState state() const override { return {{}, t_}; }
  void restore(const OptimizerState& s) override { t_ = s.steps; }

 private:
  OptimizerSpec s_;
  std::int64_t t_ = 0;
};

class Momentum : public Optimizer {
 public:
  explicit Momentum(OptimizerSpec s) : s_(s) {}
  void apply(ParamSet& p, const ParamSet& g) override {
    if (v_.empty()) v_ = zeros_like(p);
    const float lr = float(lr_at(s_, t_++));
    for (std::size_t i = 0; i < p.size(); ++i) {
      v_[i].values = float(s_.momentum) * v_[i].values + g[i].values + float(s_.weight_decay) * p[i].values;
      p[i].values -= lr * v_[i].values;
    }
  }
  OptimizerState state() const override { return {{v_}, t_}; }
  void restore(const OptimizerState& s) override {
    v_ = s.slots.empty() ? ParamSet{} : s.slots[0];
    t_ = s.steps;
  }

 private:
  OptimizerSpec s_;
  ParamSet v_;
  std::int64_t t_ = 0;
};

// Kingma & Ba 2015, with bias correction.
class Adam : public Optimizer {
 public:
  explicit Adam(OptimizerSpec s) : s_(s) {}
  void apply(ParamSet& p, const ParamSet& g) override {
    if (m_.empty()) m_ = v_ = zeros_like(p);
    const float lr = float(lr_at(s_, t_));
    ++t_;
    const float b1 = float(s_.beta1), b2 = float(s_.beta2);
    const float c1 = 1.0f - std::pow(b1, float(t_)), c2 = 1.0f - std::pow(b2, float(t_));
    for (std::size_t i = 0; i < p.size(); ++i) {
      Eigen::VectorXf gi = g[i].values + float(s_.weight_decay) * p[i].values;
      m_[i].values = b1 * m_[i].values + (1 - b1) * gi;
      v_[i].values = b2 * v_[i].values + (1 - b2) * gi.cwiseProduct(gi);
      p[i].values.array() -= lr * (m_[i].values.array() / c1) / ((v_[i].values.array() / c2).sqrt() + float(s_.eps));
    }
  }
  OptimizerState state() const override { return {{m_, v_}, t_}; }
  void restore(const OptimizerState& s) override {
    m_ = s.slots.size() == 2 ? s.slots[0] : ParamSet{};
    v_ = s.slots.size() == 2 ? s.slots[1] : ParamSet{};
    t_ = s.steps;
  }

 private:
  OptimizerSpec s_;
  ParamSet m_, v_;
  std::int64_t t_ = 0;
};

}  // namespace

std::unique_ptr<Optimizer> make_sgd(const OptimizerSpec& s) { return std::make_unique<Sgd>(s); }
std::unique_ptr<Optimizer> make_momentum(const OptimizerSpec& s) { return std::make_unique<Momentum>(s); }
std::unique_ptr<Optimizer> make_adam(const OptimizerSpec& s) { return std::make_unique<Adam>(s); }

}  // namespace geotrain
