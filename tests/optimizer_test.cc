// Every optimiser drives a badly conditioned quadratic to its minimum.
#include "core/optim/optimizer.h"

#include <gtest/gtest.h>

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

TEST(Optimizer, UnknownKindIsRejected) {
  OptimizerSpec s;
  s.kind = "adagrad";
  EXPECT_THROW(make_optimizer(s), std::invalid_argument);
}

}  // namespace
}  // namespace geotrain
