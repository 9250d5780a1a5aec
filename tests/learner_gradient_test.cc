// Every differentiable learner's update against central finite differences of
// the loss it reports, on tiny data: the dense layers (every activation), the
// convolutions and pooling, the LSTM, the ranking losses, matrix
// factorisation, and the actor's policy gradient.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "core/data/ranking.h"
#include "core/data/ratings.h"
#include "core/learners/gd/autoencoder.h"
#include "core/learners/gd/cnn.h"
#include "core/learners/gd/listnet.h"
#include "core/learners/gd/mf.h"
#include "core/learners/gd/ranknet.h"
#include "core/learners/gd/rnn.h"
#include "core/learners/rl/a2c.h"

namespace geotrain {
namespace {

// Checks up to `per_block` entries of each of the blocks [first, last) of the
// update, drawn at random. The learner's rng is replayed for every evaluation,
// so a sampling learner sees the same episodes.
void check_gradient(const Learner& l, const Dataset& d, const std::vector<int>& batch, std::size_t first = 0,
                    std::size_t last = 1000, int per_block = 12, float h = 1e-2f) {
  std::mt19937_64 pick(5);
  std::normal_distribution<float> n(0, 1);
  ParamSet p = l.init(3);
  for (auto& b : p)  // biases off zero: away from ReLU kinks
    for (Eigen::Index i = 0; i < b.values.size(); ++i) b.values[i] += 0.05f * n(pick);
  const std::mt19937_64 rng0(11);
  auto loss = [&](const ParamSet& q, ParamSet* g) {
    std::mt19937_64 rng = rng0;
    return l.local_update(q, d, batch, rng, g);
  };
  ParamSet g, scratch;
  loss(p, &g);
  ASSERT_EQ(g.size(), p.size());
  int checked = 0;
  for (std::size_t blk = first; blk < std::min(last, p.size()); ++blk) {
    const Eigen::Index size = p[blk].values.size();
    std::uniform_int_distribution<Eigen::Index> at(0, size - 1);
    for (int k = 0; k < std::min<Eigen::Index>(per_block, size); ++k) {
      const Eigen::Index i = size <= per_block ? k : at(pick);
      ParamSet plus = p, minus = p;
      plus[blk].values[i] += h;
      minus[blk].values[i] -= h;
      const double numeric = (loss(plus, &scratch) - loss(minus, &scratch)) / (2 * h);
      EXPECT_NEAR(g[blk].values[i], numeric, 2e-3 + 3e-2 * std::abs(numeric))
          << l.name() << " block " << blk << " index " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 8);
}

Dataset tiny_images(int side, int samples, int classes) {
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<float> u(0, 1);
  Dataset d;
  d.x.resize(side * side, samples);
  for (Eigen::Index i = 0; i < d.x.size(); ++i) d.x.data()[i] = u(rng);
  for (int i = 0; i < samples; ++i) d.y.push_back(i % classes);
  d.classes = classes;
  return d;
}

std::vector<int> first(int n) {
  std::vector<int> v(std::size_t(n), 0);
  for (int i = 0; i < n; ++i) v[std::size_t(i)] = i;
  return v;
}

TEST(LearnerGradient, CnnConvolutionsPoolingAndDenseHead) {
  check_gradient(Cnn(64, 3, 2, 3, 5), tiny_images(8, 4, 3), first(4), 0, 1000, 12, 1e-3f);
}

TEST(LearnerGradient, RnnLstmThroughTimeAndItsHead) {
  check_gradient(Rnn(36, 6, 5, 3), tiny_images(6, 4, 3), first(4));
}

TEST(LearnerGradient, AutoencoderReluLinearCodeAndSigmoidOutput) {
  check_gradient(Autoencoder(16, {6, 3}), tiny_images(4, 5, 2), first(5));
}

TEST(LearnerGradient, MatrixFactorisation) {
  const TrainTest tt = make_ratings({5, 6, 3, 0.1, 40, 5, 1});
  check_gradient(MatrixFactorisation(5, 6, 3, 0.05f, 0.5f), tt.train, first(40));
}

TEST(LearnerGradient, RankNetAndListNetOverQueries) {
  const TrainTest tt = make_ranking({4, 1, 5, 6, 0.3, 1});
  check_gradient(RankNet(6, {4}), tt.train, {0, 1, 2, 3}, 0, 1000, 12, 1e-3f);
  check_gradient(ListNet(6, {4}), tt.train, {0, 1, 2, 3}, 0, 1000, 12, 1e-3f);
}

TEST(LearnerGradient, ActorPolicyGradientThroughTanhLayers) {
  // The actor's blocks (0-3): the surrogate -log pi(a) A with the sampled
  // episodes and advantages fixed; the critic's advantage is a constant to it.
  Dataset envs;
  envs.kind = "environment";
  envs.x.resize(1, 2);
  check_gradient(A2c(A2cParams{8, 0.99, 0.5, 0.01}), envs, {0, 1}, 0, 4, 12, 2e-3f);
}

}  // namespace
}  // namespace geotrain
