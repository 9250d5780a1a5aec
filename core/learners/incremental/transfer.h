// Incremental learning on the parameter-server pattern: a CNN pre-trained
// elsewhere (core/learners/gd/cnn.h; a parameter file written by
// `geotrain sim --save-model`) whose lower layers are frozen, and a head
// trained through the servers on new data:
//  - feature extraction: the CNN up to its dense ReLU layer is frozen and its
//    activations feed a new head (a softmax, or an MLP with `hidden` layers)
//    for classes the CNN never saw;
//  - fine-tuning: the CNN's convolutions (and, with frozen_dense, its dense
//    layer) are frozen; the layers above start from the pre-trained values and
//    continue on new data.
// The frozen blocks are read from the file on every node and are never part
// of the model: only the head's blocks are pulled and pushed, so frozen
// blocks never cross the WAN. Each node computes the frozen features of the
// rows it touches once and keeps them (a cache of what the file determines),
// so a step costs the head's work, which is what the compute model charges.
// Metrics: a classifier's (test accuracy, test cross-entropy).
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "core/learners/gd/cnn.h"
#include "core/learners/learner.h"
#include "core/learners/nn/dense_net.h"

namespace geotrain {

struct TransferOptions {
  std::string base;            // the pre-trained CNN's parameter file
  int inputs = 784;            // pixels per image
  bool through_dense = true;   // frozen up to and including the dense layer (else the convolutions only)
  bool continue_head = false;  // the head starts from the file's layers above the cut (fine-tuning)
  std::vector<int> hidden;     // a new head's hidden ReLU layers (feature extraction)
  int classes = 10;            // a new head's outputs
};

class Transfer : public Learner {
 public:
  // Throws std::runtime_error naming the file when it is missing or not a CNN for `inputs` pixels, and
  // std::invalid_argument when a continued head's classes differ from the data's.
  Transfer(std::string name, const TransferOptions& o);
  std::string name() const override { return name_; }
  ParamSet init(std::uint64_t seed) const override;
  double local_update(const ParamSet& p, const Dataset& train, const std::vector<int>& batch, std::mt19937_64& rng,
                      ParamSet* update) const override;
  double train_flops_per_sample() const override { return head_.train_flops_per_sample(); }
  // Per row its cached features.
  LearnerFootprint footprint(const ParamSet& initial, std::int64_t train_rows) const override {
    LearnerFootprint f = Learner::footprint(initial, train_rows);
    f.per_row_bytes = sizeof(float) * std::uint64_t(head_.inputs()) + 1;
    return f;
  }
  const std::vector<MetricInfo>& metrics() const override;
  std::vector<double> evaluate(const ParamSet& p, const Dataset& test) const override;

 private:
  struct Features;
  // The frozen features of rows `rows` of d (features x rows), computed once per row.
  Eigen::MatrixXf features(const Dataset& d, const std::vector<int>& rows) const;
  std::string name_;
  TransferOptions o_;
  ParamSet base_;
  int base_classes_ = 0;  // the pre-trained CNN's outputs
  std::unique_ptr<Cnn> cnn_;
  DenseNet head_;
  mutable std::mutex mutex_;
  mutable std::map<const Dataset*, std::shared_ptr<Features>> cache_;
};

}  // namespace geotrain
