// A stack of fully connected layers with an activation each, over keyed
// blocks: the building block the gradient-descent learners share (the
// autoencoder, the GAN's two networks, the ranking scorers, the actor and the
// critic). Layer l's weight matrix (out x in, column-major) is block
// first + 2l and its bias block first + 2l + 1, by position in the ParamSet
// (the keys are the same numbers), so two networks can share one model.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <initializer_list>
#include <random>
#include <vector>

#include "core/payload/params.h"

namespace geotrain {

enum class Act : std::uint8_t { kLinear, kRelu, kLeakyRelu, kTanh, kSigmoid };  // leaky: slope 0.2 below 0

class DenseNet {
 public:
  // sizes: inputs, then each layer's outputs; acts: one per layer.
  DenseNet(std::vector<int> sizes, std::vector<Act> acts, std::size_t first_block = 0);

  // Appends the layers' blocks to p (He-scaled normal weights, zero biases).
  void init(ParamSet& p, std::mt19937_64& rng) const;
  std::size_t blocks() const { return 2 * (sizes_.size() - 1); }
  std::size_t first_block() const { return first_; }
  int inputs() const { return sizes_.front(); }
  int outputs() const { return sizes_.back(); }

  // Each layer's input and the final output, kept by forward() for backward().
  struct Tape {
    std::vector<Eigen::MatrixXf> in;
    Eigen::MatrixXf out;
  };
  // Columns of x are samples. tape may be null (inference).
  Eigen::MatrixXf forward(const ParamSet& p, const Eigen::MatrixXf& x, Tape* tape = nullptr) const;
  // dout: d(loss)/d(output), output after the last activation. Adds the
  // parameter gradients into *grad (p's layout); returns d(loss)/d(input)
  // when want_dx (else an empty matrix).
  Eigen::MatrixXf backward(const ParamSet& p, const Tape& tape, Eigen::MatrixXf dout, ParamSet* grad,
                           bool want_dx = false) const;
  // Multiply-adds of one forward and backward pass per sample, times two.
  double train_flops_per_sample() const;

 private:
  std::vector<int> sizes_;
  std::vector<Act> acts_;
  std::size_t first_;
};

// A model of the given networks' blocks, in order, drawn from one seeded stream
// (the learners made of dense networks start this way).
ParamSet init_networks(std::uint64_t seed, std::initializer_list<const DenseNet*> nets);

}  // namespace geotrain
