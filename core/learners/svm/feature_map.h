// The inputs a support-vector learner fits a linear function of, z = phi(x):
//  - linear: the raw features and a constant 1 (the intercept), D = features + 1;
//  - random Fourier features (Rahimi and Recht 2007): z = sqrt(2 / R) cos(Omega x + b)
//    and a constant 1, D = R + 1, with Omega ~ N(0, 2 gamma) and b ~ U[0, 2 pi], so
//    that z . z' approximates the RBF kernel exp(-gamma |x - x'|^2) + 1: a kernel
//    SVM whose model stays R + 1 numbers per output.
// The map is drawn from its own seed, the same on every node.
#pragma once
#include <Eigen/Dense>
#include <cstdint>

namespace geotrain {

class FeatureMap {
 public:
  // rff = 0: linear.
  FeatureMap(int inputs, int rff, double gamma, std::uint64_t seed);
  int inputs() const { return inputs_; }
  int rff() const { return rff_; }
  int dims() const { return rff_ > 0 ? rff_ + 1 : inputs_ + 1; }
  // z (dims() entries) of one input x (inputs() entries).
  void map(const float* x, float* z) const;
  // dims() x columns of x.
  Eigen::MatrixXf map(const Eigen::MatrixXf& x) const;

 private:
  int inputs_, rff_;
  Eigen::MatrixXf omega_;  // rff x inputs
  Eigen::VectorXf phase_;  // rff
};

}  // namespace geotrain
