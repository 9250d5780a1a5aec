// The model interface of the unified parameter-server pattern: parameters are
// keyed blocks, a local step over a batch yields an update (here a gradient of
// the mean loss), updates aggregate by summation and the optimiser applies the
// aggregate. Models are stateless: parameters live in ParamSets owned by roles,
// so one Model object can serve every role in a process.
#pragma once
#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/data/dataset.h"
#include "core/params.h"

namespace geotrain {

struct Evaluation {
  double accuracy = 0;
  double loss = 0;  // mean cross-entropy
};

class Model {
 public:
  virtual ~Model() = default;
  virtual std::string name() const = 0;
  virtual ParamSet init(std::uint64_t seed) const = 0;
  // Mean loss over the batch (columns of x with labels y); writes d(loss)/d(params)
  // into *grad with the layout of p.
  virtual double loss_and_gradient(const ParamSet& p, const Eigen::MatrixXf& x, const std::vector<int>& y,
                                   ParamSet* grad) const = 0;
  // Class scores, classes x samples.
  virtual Eigen::MatrixXf logits(const ParamSet& p, const Eigen::MatrixXf& x) const = 0;
  // Floating-point operations of one training step (forward + backward) per sample:
  // what the compute-time model charges.
  virtual double train_flops_per_sample() const = 0;
  // False for a workload profile, which moves the traffic and charges the
  // compute of a model it does not train (summary.json: accuracy_modelled).
  virtual bool accuracy_modelled() const { return true; }
};

// Accuracy and mean loss over the first max_samples samples of d (all if <= 0),
// evaluated in chunks so memory stays bounded.
Evaluation evaluate(const Model& m, const ParamSet& p, const Dataset& d, int max_samples = 0);

}  // namespace geotrain
