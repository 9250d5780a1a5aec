// The learner registry's entries for online learning on a stream: FTRL-Proximal and FTML
// (core/learners/learner_registry.h: what an entry says).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/learners/classifier.h"
#include "core/learners/learner_entries.h"
#include "core/learners/metrics.h"
#include "core/learners/online/ftrl.h"

namespace geotrain {
namespace {

// Gradients of a stream, applied by the learner's per-coordinate rule in any order: late ones are fine.
LearnerCaps online_caps() {
  LearnerCaps c;
  c.model_averaging = c.cuttable = c.values_meaningful = false;
  c.update_precision = Precision::kRounding;  // the progressive scores are counts
  c.apply = Apply::kLearner;
  c.stream = true;
  return c;
}

std::unique_ptr<Learner> make_online(const ModelSpec& m, const TrainTest& d, bool ftml) {
  OnlineParams op;
  op.ftml = ftml;
  if (ftml) {
    op.eta = m.param("eta");
    op.beta1 = m.param("beta1");
    op.beta2 = m.param("beta2");
  } else {
    op.alpha = m.param("alpha");
    op.beta = m.param("beta");
    op.l1 = m.param("l1");
    op.l2 = m.param("l2");
  }
  return std::make_unique<OnlineLinear>(d.train.features(), d.train.classes, d.train.size(), op);
}

}  // namespace

std::vector<LearnerInfo> online_learners() {
  return {
      {{"ftrl",
        "FTRL-Proximal logistic regression on a stream: each worker reads its shard once, in order; per-coordinate "
        "learning rates, L1 making weights exactly zero",
        {}},
       "online",
       {"labelled"},
       {{"alpha", 0.1, 1e-6, 100, false, "learning-rate scale"},
        {"beta", 1, 0, 100, false, "learning-rate offset: alpha / (beta + sqrt(sum of squared gradients))"},
        {"l1", 0, 0, 100, false, "L1 strength (weights with |z| <= l1 are zero)"},
        {"l2", 0, 0, 100, false, "L2 strength"}},
       OnlineLinear::static_metrics(),
       online_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) { return make_online(m, d, false); }},
      {{"ftml",
        "FTML (Follow the Moving Leader) logistic regression on a stream: each worker reads its shard once, in order; "
        "Adam-like moving averages in a follow-the-leader update",
        {}},
       "online",
       {"labelled"},
       {{"eta", 0.002, 1e-6, 10, false, "step size"},
        {"beta1", 0.6, 0, 0.999999, false, "decay of the gradient's moving average"},
        {"beta2", 0.999, 0, 0.999999, false, "decay of the squared gradient's moving average"}},
       OnlineLinear::static_metrics(),
       online_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) { return make_online(m, d, true); }},
  };
}

}  // namespace geotrain
