// The shared half of every learner that classifies labelled samples with a
// softmax over class scores (softmax and logistic regression, MLP, CNN, RNN,
// workload profiles): its metrics are test accuracy (primary) and test
// cross-entropy, and its local work is the mean cross-entropy's gradient over
// the batch. A subclass gives the scores and the gradient for a matrix of
// inputs.
#pragma once
#include <Eigen/Dense>

#include "core/learners/learner.h"

namespace geotrain {

class Classifier : public Learner {
 public:
  // Mean loss over the batch (columns of x with labels y); writes d(loss)/d(params)
  // into *grad with the layout of p.
  virtual double loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                                   ParamSet* grad) const = 0;
  // Class scores, classes x samples.
  virtual Eigen::MatrixXf logits(const ParamSet& p, const Eigen::MatrixXf& x) const = 0;

  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  const std::vector<MetricInfo>& metrics() const override;
  // {accuracy, test cross-entropy}.
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;
};

// The mean softmax cross-entropy of logits z (classes x batch) against labels y;
// z becomes its gradient with respect to the logits, (softmax - onehot) / batch.
double softmax_cross_entropy(Eigen::MatrixXf& z, const std::vector<int>& y);

// {accuracy (primary, higher is better), test_loss (lower)}: every classifier's metrics.
const std::vector<MetricInfo>& classifier_metrics();

// Accuracy and mean cross-entropy of a classifier over the first max_samples
// samples of d (all if <= 0), in chunks so memory stays bounded.
struct Evaluation {
  double accuracy = 0;
  double loss = 0;
};
Evaluation evaluate_classifier(const Classifier& m, const ParamSet& p, const Dataset& d, int max_samples = 0);

}  // namespace geotrain
