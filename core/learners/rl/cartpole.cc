#include "core/learners/rl/cartpole.h"

#include <cmath>

namespace geotrain {

CartPole::CartPole(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-0.05f, 0.05f);
  for (float& v : s_) v = u(rng);
}

bool CartPole::step(int action) {
  constexpr float kGravity = 9.8f, kCart = 1.0f, kPole = 0.1f, kTotal = kCart + kPole, kHalfLength = 0.5f;
  constexpr float kPoleMoment = kPole * kHalfLength, kForce = 10.0f, kTau = 0.02f;
  constexpr float kThetaLimit = 12.0f * 2.0f * 3.14159265358979f / 360.0f, kXLimit = 2.4f;
  auto& [x, x_dot, theta, theta_dot] = s_;
  const float force = action == 1 ? kForce : -kForce;
  const float cos_t = std::cos(theta), sin_t = std::sin(theta);
  const float temp = (force + kPoleMoment * theta_dot * theta_dot * sin_t) / kTotal;
  const float theta_acc =
      (kGravity * sin_t - cos_t * temp) / (kHalfLength * (4.0f / 3.0f - kPole * cos_t * cos_t / kTotal));
  const float x_acc = temp - kPoleMoment * theta_acc * cos_t / kTotal;
  x += kTau * x_dot;
  x_dot += kTau * x_acc;
  theta += kTau * theta_dot;
  theta_dot += kTau * theta_acc;
  ++steps_;
  const bool fallen = x < -kXLimit || x > kXLimit || theta < -kThetaLimit || theta > kThetaLimit;
  return !fallen && steps_ < kMaxSteps;
}

}  // namespace geotrain
