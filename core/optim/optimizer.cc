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
    // A segment at a time, its gradient term on the stack: one pass over each
    // array while it is in cache, and no heap allocation per step (a big
    // block's temporary cost a fresh mmap and its page faults every step).
    constexpr Eigen::Index kSeg = 2048;
    using Seg = Eigen::Matrix<float, Eigen::Dynamic, 1, 0, kSeg, 1>;
    for (std::size_t i = 0; i < p.size(); ++i) {
      const Eigen::Index n = p[i].values.size();
      for (Eigen::Index at = 0; at < n; at += kSeg) {
        const Eigen::Index len = std::min(kSeg, n - at);
        auto w = p[i].values.segment(at, len);
        auto m = m_[i].values.segment(at, len);
        auto v = v_[i].values.segment(at, len);
        const Seg gi = g[i].values.segment(at, len) + float(s_.weight_decay) * w;
        m = b1 * m + (1 - b1) * gi;
        v = b2 * v + (1 - b2) * gi.cwiseProduct(gi);
        w.array() -= lr * (m.array() / c1) / ((v.array() / c2).sqrt() + float(s_.eps));
      }
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
