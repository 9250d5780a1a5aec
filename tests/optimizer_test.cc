// Every optimiser drives a badly conditioned quadratic to its minimum.
#include "core/optim/optimizer.h"

#include <gtest/gtest.h>

#include <cstring>

namespace geotrain {
namespace {

// f(x) = 0.5 * sum a_i (x_i - c_i)^2
struct Quadratic {
  Eigen::VectorXf a{Eigen::VectorXf::LinSpaced(8, 0.5f, 4.0f)};
  Eigen::VectorXf c{Eigen::VectorXf::LinSpaced(8, -3.0f, 3.0f)};
  ParamSet grad(const ParamSet& x) const { return {{0, a.cwiseProduct(x[0].values - c)}}; }
};

float solve(const OptimizerSpec& spec, int steps) {
  Quadratic q;
  ParamSet x = {{0, Eigen::VectorXf::Zero(8)}};
  auto opt = make_optimizer(spec);
  for (int i = 0; i < steps; ++i) opt->apply(x, q.grad(x));
  return (x[0].values - q.c).cwiseAbs().maxCoeff();
}

TEST(Optimizer, SgdConverges) {
  OptimizerSpec s;
  s.kind = "sgd";
  s.lr = 0.2;
  EXPECT_LT(solve(s, 300), 1e-4f);
}

TEST(Optimizer, MomentumConvergesFasterThanSgdOnIllConditioning) {
  OptimizerSpec sgd;
  sgd.lr = 0.05;
  OptimizerSpec mom = sgd;
  mom.kind = "momentum";
  mom.momentum = 0.8;
  EXPECT_LT(solve(mom, 60), solve(sgd, 60));
  EXPECT_LT(solve(mom, 400), 1e-4f);
}

TEST(Optimizer, AdamConverges) {
  OptimizerSpec s;
  s.kind = "adam";
  s.lr = 0.05;
  EXPECT_LT(solve(s, 2000), 1e-3f);
}

TEST(Optimizer, LinearDecayReachesItsFloorAndStays) {
  OptimizerSpec s;
  s.lr = 0.1;
  s.decay_to = 0.25;
  s.decay_steps = 100;
  EXPECT_DOUBLE_EQ(lr_at(s, 0), 0.1);
  EXPECT_DOUBLE_EQ(lr_at(s, 50), 0.1 * (1 - 0.75 * 0.5));
  EXPECT_DOUBLE_EQ(lr_at(s, 100), 0.025);
  EXPECT_DOUBLE_EQ(lr_at(s, 5000), 0.025);
  s.decay_steps = 0;
  EXPECT_DOUBLE_EQ(lr_at(s, 5000), 0.1);
}

// A decayed step is smaller: one sgd step from the same point moves by lr_at(step) x gradient, and the
// step count survives a checkpoint (state/restore), so a resumed run keeps its schedule.
TEST(Optimizer, DecayFollowsTheStepCountThroughACheckpoint) {
  for (const char* kind : {"sgd", "momentum", "adam"}) {
    OptimizerSpec s;
    s.kind = kind;
    s.lr = 0.1;
    s.decay_to = 0;
    s.decay_steps = 10;
    Quadratic q;
    ParamSet x = {{0, Eigen::VectorXf::Zero(8)}};
    auto opt = make_optimizer(s);
    for (int i = 0; i < 10; ++i) opt->apply(x, q.grad(x));
    auto resumed = make_optimizer(s);
    resumed->restore(opt->state());
    const ParamSet before = x;
    resumed->apply(x, q.grad(x));  // step 10: rate 0
    EXPECT_EQ((x[0].values - before[0].values).cwiseAbs().maxCoeff(), 0.0f) << kind;
  }
}

// A worker prepares Adam's step on its compute thread and subtracts it later:
// the same bits as apply(), step after step, on a block longer than one of
// Adam's segments; with weight decay (the step reads the parameters) it refuses.
TEST(Optimizer, APreparedAdamStepIsAppliedToTheSameBits) {
  OptimizerSpec s;
  s.kind = "adam";
  s.lr = 0.01;
  const Eigen::Index n = 5000;
  const ParamSet start = {{0, Eigen::VectorXf::LinSpaced(n, -2.0f, 3.0f)}, {3, Eigen::VectorXf::Constant(7, 0.5f)}};
  const auto grad = [](const ParamSet& x) {
    ParamSet g = x;
    for (auto& b : g) b.values = b.values.array().sin() * 3.0f + 0.1f;
    return g;
  };
  ParamSet at_once = start, prepared = start;
  auto a = make_optimizer(s), b = make_optimizer(s);
  ASSERT_TRUE(b->prepares_steps());
  for (int step = 0; step < 20; ++step) {
    a->apply(at_once, grad(at_once));
    b->prepare(grad(prepared));
    b->apply_prepared(prepared);
  }
  for (std::size_t i = 0; i < start.size(); ++i)
    EXPECT_EQ(0, std::memcmp(at_once[i].values.data(), prepared[i].values.data(),
                             sizeof(float) * std::size_t(at_once[i].values.size())))
        << "block " << i;
  EXPECT_NE(at_once[0].values, start[0].values);
  s.weight_decay = 1e-4;
  auto decayed = make_optimizer(s);
  EXPECT_FALSE(decayed->prepares_steps());
  EXPECT_THROW(decayed->prepare(grad(start)), std::logic_error);
}

// An element's Adam step must not depend on where in a block it sits: MultiGPS
// (core/layers/shard) cuts a tensor into slices of any length, and each server
// applies the optimiser to its own. Eigen's "fast math" square root of a
// packet (an approximate reciprocal square root and a Newton step) differs
// from the exact one used for a block's scalar tail, and the approximation
// itself differs between CPU makers; the build turns it off (EIGEN_FAST_MATH 0).
TEST(Optimizer, AnAdamStepIsTheSameBitsWhicheverSliceAnElementIsIn) {
  OptimizerSpec s;
  s.kind = "adam";
  s.lr = 0.01;
  const Eigen::Index n = 1001, len = 7;  // slices of 7: four elements in a vector register, three after it
  const Eigen::VectorXf x0 = Eigen::VectorXf::LinSpaced(n, -2.0f, 3.0f);
  const auto grad = [](const Eigen::VectorXf& x) { return Eigen::VectorXf((x.array() * 1.7f).sin() * 3.0f + 0.1f); };
  const auto slice = [&](const Eigen::VectorXf& v) {
    ParamSet out;
    for (Eigen::Index at = 0; at < n; at += len)
      out.push_back({std::uint32_t(at), v.segment(at, std::min(len, n - at))});
    return out;
  };
  ParamSet whole = {{0, x0}}, sliced = slice(x0);
  auto a = make_optimizer(s), b = make_optimizer(s);
  for (int step = 0; step < 5; ++step) {
    // One gradient for both, sliced (so that only the optimiser's arithmetic can differ).
    const Eigen::VectorXf g = grad(whole[0].values);
    a->apply(whole, {{0, g}});
    b->apply(sliced, slice(g));
  }
  int differ = 0;
  for (const auto& blk : sliced)
    for (Eigen::Index i = 0; i < blk.values.size(); ++i)
      differ += std::memcmp(&blk.values[i], &whole[0].values[Eigen::Index(blk.key) + i], sizeof(float)) != 0;
  EXPECT_EQ(differ, 0) << "elements whose step depends on the slice they are in";
}

TEST(Optimizer, UnknownKindIsRejected) {
  OptimizerSpec s;
  s.kind = "adagrad";
  EXPECT_THROW(make_optimizer(s), std::invalid_argument);
}

}  // namespace
}  // namespace geotrain
