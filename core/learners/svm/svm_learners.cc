// The learner registry's entries for the support-vector family by CoCoA+
// (core/learners/learner_registry.h: what an entry says).
#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "core/learners/classifier.h"
#include "core/learners/learner_entries.h"
#include "core/learners/metrics.h"
#include "core/learners/svm/ranksvm.h"
#include "core/learners/svm/svm.h"
#include "core/learners/svm/svr.h"

namespace geotrain {
namespace {

// CoCoA+'s parameters; rff defaults differ (a linear SVM, kernel SVR and RankSVM).
std::vector<NumericParam> cocoa_params(double lambda, int rff, double gamma, std::vector<NumericParam> more = {}) {
  std::vector<NumericParam> p = {
      {"lambda", lambda, 1e-12, 1e6, false, "L2 strength: lambda/2 |w|^2 + mean loss"},
      {"passes", 1, 1e-3, 1000, false,
       "SDCA passes over the shard's dual variables per round (local work per WAN round; fractions allowed)"},
      {"rff", double(rff), 0, 100000, true,
       "random Fourier features approximating an RBF kernel; 0: linear (the raw features and an intercept)"},
      {"gamma", gamma, 1e-9, 1e6, false, "the RBF kernel's width: exp(-gamma |x - x'|^2)"}};
  p.insert(p.end(), more.begin(), more.end());
  return p;
}

CocoaParams cocoa_of(const ModelSpec& m, const TrainTest& d) {
  CocoaParams cp{m.param("lambda"), m.param("passes"), int(m.param("rff")), m.param("gamma")};
  check_model_size("model", (cp.rff > 0 ? cp.rff + 1.0 : d.train.features() + 1.0) * std::max(1, d.train.classes));
  return cp;
}

}  // namespace

std::vector<LearnerInfo> support_vector_learners() {
  return {
      {{"svm",
        "linear SVM, one-vs-rest (a hinge-loss problem per class), trained by distributed dual coordinate ascent "
        "(CoCoA+): each worker's dual variables stay on it, the primal changes add up the hierarchy",
        {}},
       "support-vector",
       {"labelled"},
       cocoa_params(1e-3, 0, 0.01),
       Svm::static_metrics(),
       statistics_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) { return std::make_unique<Svm>(d.train, cocoa_of(m, d)); }},
      {{"svr",
        "support-vector regression (epsilon-insensitive loss) on random Fourier features (an RBF kernel), "
        "trained by CoCoA+",
        {}},
       "support-vector",
       {"regression"},
       cocoa_params(1e-6, 2000, 0.5, {{"epsilon", 0.5, 0, 1e6, false, "errors within epsilon cost nothing"}}),
       Svr::static_metrics(),
       statistics_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<Svr>(d.train, cocoa_of(m, d), float(m.param("epsilon")));
       }},
      {{"ranksvm",
        "RankSVM: the hinge loss of every document pair of a query graded apart, on random Fourier features, "
        "trained by CoCoA+ (a query's pairs stay on its worker)",
        {}},
       "support-vector",
       {"ranking"},
       cocoa_params(1e-5, 500, 0.05),
       Cocoa::with_certificate(ranking_metrics()),
       statistics_caps(),
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) { return std::make_unique<RankSvm>(d.train, cocoa_of(m, d)); }},
  };
}

}  // namespace geotrain
