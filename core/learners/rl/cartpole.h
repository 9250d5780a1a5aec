// The classic cart-pole (Barto, Sutton and Anderson 1983), with the dynamics
// and limits of Gym's CartPole-v1: a 1 kg cart, a 0.1 kg pole of half-length
// 0.5 m, a 10 N push left or right every 0.02 s (Euler steps); the episode
// ends when the cart leaves +-2.4 m, the pole tilts past 12 degrees, or after
// 500 steps. Reward 1 per step, so the return is the episode's length.
#pragma once
#include <array>
#include <cstdint>
#include <random>

namespace geotrain {

class CartPole {
 public:
  static constexpr int kMaxSteps = 500;
  using State = std::array<float, 4>;  // x, x_dot, theta, theta_dot

  // A new episode: every state variable uniform in [-0.05, 0.05].
  explicit CartPole(std::uint64_t seed);
  const State& state() const { return s_; }
  // Pushes right (action 1) or left (0); returns true while the episode goes on.
  bool step(int action);
  int steps() const { return steps_; }

 private:
  State s_{};
  int steps_ = 0;
};

}  // namespace geotrain
