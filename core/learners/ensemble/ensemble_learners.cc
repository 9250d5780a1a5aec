// The learner registry's entries for the tree and boosting family
// (core/learners/learner_registry.h: what an entry says).
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/learners/classifier.h"
#include "core/learners/ensemble/adarank.h"
#include "core/learners/ensemble/booster.h"
#include "core/learners/ensemble/random_forest.h"
#include "core/learners/ensemble/rankboost.h"
#include "core/learners/ensemble/tree_params.h"
#include "core/learners/learner_entries.h"
#include "core/learners/metrics.h"

namespace geotrain {
namespace {

// Trees grown a level a round from histograms summed exactly: phase-locked, applied by the learner; the
// histograms may travel rounded (fp16), the forest only exactly.
LearnerCaps tree_caps() {
  LearnerCaps c = statistics_caps();
  c.update_precision = Precision::kRounding;
  return c;
}

}  // namespace

std::vector<LearnerInfo> ensemble_learners() {
  return {
      {{"gbdt",
        "gradient-boosted trees, first order (trees fit the gradients, mean-step leaves), one tree per class per "
        "iteration, from histograms summed up the hierarchy",
        {}},
       "ensemble",
       {"labelled"},
       boost_params(1.0, 0, 0.8, false),
       Booster::with_progress(classifier_metrics()),
       tree_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<Booster>("gbdt", features_of(d), shape_of(m), boost_of(m, false),
                                          softmax_objective(classes_of(d)));
       }},
      {{"xgboost",
        "XGBoost-style boosting: second-order gain with lambda, gamma and min_child_weight, Newton leaves, row and "
        "column subsampling, one tree per class per iteration",
        {}},
       "ensemble",
       {"labelled"},
       boost_params(0.3, 1, 1, true),
       Booster::with_progress(classifier_metrics()),
       tree_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<Booster>("xgboost", features_of(d), shape_of(m), boost_of(m, true),
                                          softmax_objective(classes_of(d)));
       }},
      {{"random_forest",
        "random forest: bagged trees (Poisson bootstrap, sqrt(features) per split, Gini) grown a level a round from "
        "class-count histograms summed up the hierarchy; soft voting",
        {}},
       "ensemble",
       {"labelled"},
       forest_params(),
       RandomForest::static_metrics(),
       tree_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         ForestParams fp;
         fp.trees_per_round = int(m.param("trees_per_round"));
         fp.min_leaf = m.param("min_leaf");
         fp.features_fraction = m.param("features_fraction");
         fp.bootstrap_rate = m.param("bootstrap_rate");
         return std::make_unique<RandomForest>(features_of(d), classes_of(d), shape_of(m), fp);
       }},
      {{"rankboost",
        "RankBoost: threshold weak rankers on single features, one a round, chosen from pair-weight histograms "
        "summed up the hierarchy",
        {}},
       "ensemble",
       {"ranking"},
       {{"rounds", 300, 1, 1000000, true, "weak rankers added (one a round, after the binning round)"},
        {"bins", 32, 2, 256, true, "thresholds per feature, cut at quantiles of a merged sample"},
        {"sketch_rows", 4096, 16, 1 << 20, true, "rows in the binning sample"}},
       RankBoost::static_metrics(),
       tree_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<RankBoost>(features_of(d), int(m.param("bins")), int(m.param("sketch_rows")),
                                            int(m.param("rounds")));
       }},
      {{"adarank",
        "AdaRank: a ranker boosted on NDCG@10 from single features and their thresholds, either sign, query weights "
        "summed up the hierarchy",
        {}},
       "ensemble",
       {"ranking"},
       {{"rounds", 100, 1, 1000000, true, "weak rankers added (one a round, after the binning round)"},
        {"bins", 16, 2, 256, true,
         "thresholds per feature (and the feature itself), cut at quantiles of a merged sample"},
        {"sketch_rows", 4096, 16, 1 << 20, true, "rows in the binning sample"}},
       AdaRank::static_metrics(),
       tree_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<AdaRank>(features_of(d), int(m.param("bins")), int(m.param("sketch_rows")),
                                          int(m.param("rounds")));
       }},
      {{"lambdamart",
        "LambdaMART: second-order boosted trees on RankNet's pairwise loss weighted by each pair's |delta NDCG|",
        {}},
       "ensemble",
       {"ranking"},
       boost_params(0.1, 1, 1, true),
       Booster::with_progress(ranking_metrics()),
       tree_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<Booster>("lambdamart", features_of(d), shape_of(m), boost_of(m, true),
                                          lambdamart_objective());
       }},
      {{"gbrank", "GBrank: boosted trees on the squared hinge of every document pair ranked wrong or within tau", {}},
       "ensemble",
       {"ranking"},
       [] {
         auto p = boost_params(0.1, 1, 1, true);
         p.push_back({"tau", 1, 1e-6, 100, false, "the margin a better document's score should lead by"});
         return p;
       }(),
       Booster::with_progress(ranking_metrics()),
       tree_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<Booster>("gbrank", features_of(d), shape_of(m), boost_of(m, true),
                                          gbrank_objective(m.param("tau")));
       }},
  };
}

}  // namespace geotrain
