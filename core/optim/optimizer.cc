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
    advance(g, &p, [&](std::size_t i, Eigen::Index at, Eigen::Index len, const auto& step) {
      p[i].values.segment(at, len).array() -= step;
    });
  }
  bool prepares_steps() const override { return s_.weight_decay == 0; }
  void prepare(const ParamSet& g) override {
    if (!prepares_steps()) Optimizer::prepare(g);
    if (step_.empty()) step_ = zeros_like(g);
    advance(g, nullptr, [&](std::size_t i, Eigen::Index at, Eigen::Index len, const auto& step) {
      step_[i].values.segment(at, len).array() = step;
    });
  }
  void apply_prepared(ParamSet& p) override {
    for (std::size_t i = 0; i < p.size(); ++i) p[i].values -= step_[i].values;
  }
  OptimizerState state() const override { return {{m_, v_}, t_}; }
  void restore(const OptimizerState& s) override {
    m_ = s.slots.size() == 2 ? s.slots[0] : ParamSet{};
    v_ = s.slots.size() == 2 ? s.slots[1] : ParamSet{};
    t_ = s.steps;
  }

 private:
  // Advances the moments by `g` (plus weight decay on `*p`, which may be null
  // without it) and hands each segment's step, an expression, to `use`.
  template <class Use>
  void advance(const ParamSet& g, const ParamSet* p, Use use) {
    if (m_.empty()) m_ = v_ = zeros_like(g);
    const float lr = float(lr_at(s_, t_));
    ++t_;
    const float b1 = float(s_.beta1), b2 = float(s_.beta2);
    const float c1 = 1.0f - std::pow(b1, float(t_)), c2 = 1.0f - std::pow(b2, float(t_));
    // A segment at a time, its gradient term on the stack: one pass over each
    // array while it is in cache, and no heap allocation per step (a big
    // block's temporary cost a fresh mmap and its page faults every step).
    constexpr Eigen::Index kSeg = 2048;
    using Seg = Eigen::Matrix<float, Eigen::Dynamic, 1, 0, kSeg, 1>;
    for (std::size_t i = 0; i < g.size(); ++i) {
      const Eigen::Index n = g[i].values.size();
      for (Eigen::Index at = 0; at < n; at += kSeg) {
        const Eigen::Index len = std::min(kSeg, n - at);
        auto m = m_[i].values.segment(at, len);
        auto v = v_[i].values.segment(at, len);
        const Seg gi = p ? Seg(g[i].values.segment(at, len) + float(s_.weight_decay) * (*p)[i].values.segment(at, len))
                         : Seg(g[i].values.segment(at, len));
        m = b1 * m + (1 - b1) * gi;
        v = b2 * v + (1 - b2) * gi.cwiseProduct(gi);
        use(i, at, len, lr * (m.array() / c1) / ((v.array() / c2).sqrt() + float(s_.eps)));
      }
    }
  }

  OptimizerSpec s_;
  ParamSet m_, v_;
  ParamSet step_;  // prepare()'s step, for apply_prepared()
  std::int64_t t_ = 0;
};

}  // namespace

std::unique_ptr<Optimizer> make_sgd(const OptimizerSpec& s) { return std::make_unique<Sgd>(s); }
std::unique_ptr<Optimizer> make_momentum(const OptimizerSpec& s) { return std::make_unique<Momentum>(s); }
std::unique_ptr<Optimizer> make_adam(const OptimizerSpec& s) { return std::make_unique<Adam>(s); }

}  // namespace geotrain
