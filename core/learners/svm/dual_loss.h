// The losses of the support-vector learners in the dual form stochastic dual
// coordinate ascent (SDCA; Shalev-Shwartz and Zhang 2013) works on. The primal
// is min_w lambda/2 |w|^2 + 1/n sum_i loss_i(w . z_i) and its dual
// max_alpha 1/n sum_i piece_i(alpha_i) - lambda/2 |w(alpha)|^2, with
// w(alpha) = 1/(lambda n) sum_i alpha_i z_i and piece_i = -loss_i*(-alpha_i).
//  - hinge (SVM, RankSVM): loss = max(0, 1 - y p), label y = +-1; alpha = y beta,
//    beta in [0, 1], piece = beta;
//  - epsilon-insensitive (SVR): loss = max(0, |p - y| - eps); alpha in [-1, 1],
//    piece = alpha y - eps |alpha|.
#pragma once

namespace geotrain {

struct DualLoss {
  bool epsilon_insensitive = false;  // false: hinge
  float eps = 0.0f;

  // loss_i at the prediction p = w . z for label y.
  float loss(float p, float y) const;
  // piece_i(alpha): coordinate i's share of the dual objective.
  float piece(float alpha, float y) const;
  // The alpha that maximises piece(alpha') - (alpha' - alpha) p - q/2 (alpha' - alpha)^2
  // (one coordinate's subproblem: p = z . v at the current local primal v,
  // q = sigma |z|^2 / (lambda n)), in closed form.
  float step(float alpha, float y, float p, float q) const;
};

}  // namespace geotrain
