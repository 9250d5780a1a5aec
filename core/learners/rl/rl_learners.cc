// The learner registry's entries for reinforcement learning: A2C on simulated environments
// (core/learners/learner_registry.h: what an entry says).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/learners/classifier.h"
#include "core/learners/learner_entries.h"
#include "core/learners/metrics.h"
#include "core/learners/rl/a2c.h"

namespace geotrain {

std::vector<LearnerInfo> reinforcement_learners() {
  return {
      {{"a2c", "advantage actor-critic (REINFORCE with a learned baseline) acting in cart-pole environments", {}},
       "gradient-descent",
       {"environment"},
       {{"hidden", 64, 1, 4096, true, "tanh units of the actor's and the critic's hidden layer"},
        {"gamma", 0.99, 0, 1, false, "discount of future rewards"},
        {"value_weight", 0.5, 0, 100, false, "weight of the critic's squared error"},
        {"entropy_weight", 0.01, 0, 10, false, "weight of the policy's entropy bonus"}},
       A2c::static_metrics(),
       {},
       nullptr,
       [](const ModelSpec& m, const TrainTest&) {
         return std::make_unique<A2c>(
             A2cParams{int(m.param("hidden")), m.param("gamma"), m.param("value_weight"), m.param("entropy_weight")});
       }},
  };
}

}  // namespace geotrain
