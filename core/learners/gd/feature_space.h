// The feature space of the GAN's metrics: a classifier the project trains and
// ships (scenarios/gan-feature-classifier.json, written by
// scripts/train_feature_classifier.sh to models/fmnist-features.bin), an MLP
// with one ReLU hidden layer whose activations are the features and whose
// softmax gives class probabilities. In it:
//  - the Frechet distance between two sets of samples: the Frechet distance
//    of Gaussians fitted to their features, |mu_a - mu_b|^2 +
//    tr(S_a + S_b - 2 (S_a^1/2 S_b S_a^1/2)^1/2) (FID's formula, this
//    classifier's features in place of Inception's);
//  - the inception-style score of samples: exp(mean KL(p(y|x) || p(y))),
//    from 1 (one class, or uncertain) to the number of classes.
#pragma once
#include <string>

#include "core/learners/nn/dense_net.h"

namespace geotrain {

class FeatureSpace {
 public:
  // Throws std::runtime_error naming the file when it is missing or not an
  // MLP `inputs` -> hidden -> classes.
  FeatureSpace(const std::string& path, int inputs);
  Eigen::MatrixXf features(const Eigen::MatrixXf& x) const;       // hidden x samples
  Eigen::MatrixXf probabilities(const Eigen::MatrixXf& x) const;  // classes x samples

 private:
  ParamSet p_;
  DenseNet hidden_, full_;
};

double frechet_distance(const Eigen::MatrixXf& features_a, const Eigen::MatrixXf& features_b);
double inception_score(const Eigen::MatrixXf& probabilities);

}  // namespace geotrain
