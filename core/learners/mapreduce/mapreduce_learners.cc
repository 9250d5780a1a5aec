// The learner registry's entries for the map-reduce family: k-means and KNN
// (core/learners/learner_registry.h: what an entry says).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/learners/classifier.h"
#include "core/learners/learner_entries.h"
#include "core/learners/mapreduce/kmeans.h"
#include "core/learners/mapreduce/knn.h"
#include "core/learners/metrics.h"

namespace geotrain {

std::vector<LearnerInfo> mapreduce_learners() {
  return {
      {{"kmeans",
        "k-means by Lloyd's iterations: per-cluster sums and counts merged up the hierarchy, centroids come down",
        {}},
       "mapreduce",
       {"labelled"},
       {{"k", 10, 1, 100000, true, "clusters"},
        {"local_iterations", 1, 1, 1000, true,
         "Lloyd iterations a worker runs on its shard per round (1: exactly Lloyd's; more: fewer WAN rounds)"}},
       KMeans::static_metrics(),
       statistics_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         check_model_size("model", (double(d.train.features()) + 1) * m.param("k"));
         return std::make_unique<KMeans>(d.train, int(m.param("k")), int(m.param("local_iterations")));
       }},
      {{"knn",
        "k-nearest neighbours: the training set stays sharded, test queries go down a batch a round, each "
        "worker's k nearest candidates merge by distance up the hierarchy, the global server votes",
        {}},
       "mapreduce",
       {"labelled"},
       {{"k", 5, 1, 1000, true, "neighbours that vote"}, {"query_batch", 100, 1, 100000, true, "test queries a round"}},
       Knn::static_metrics(),
       statistics_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<Knn>(d.test, int(m.param("k")), int(m.param("query_batch")));
       }},
  };
}

}  // namespace geotrain
