#include "core/learners/learner_registry.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "core/learners/classifier.h"
#include "core/learners/ensemble/adarank.h"
#include "core/learners/ensemble/booster.h"
#include "core/learners/ensemble/random_forest.h"
#include "core/learners/ensemble/rankboost.h"
#include "core/learners/ensemble/tree_params.h"
#include "core/learners/gd/autoencoder.h"
#include "core/learners/gd/cnn.h"
#include "core/learners/gd/gan.h"
#include "core/learners/gd/listnet.h"
#include "core/learners/gd/mf.h"
#include "core/learners/gd/ranknet.h"
#include "core/learners/gd/rnn.h"
#include "core/learners/incremental/transfer.h"
#include "core/learners/mapreduce/kmeans.h"
#include "core/learners/mapreduce/knn.h"
#include "core/learners/metrics.h"
#include "core/learners/mlp.h"
#include "core/learners/online/ftrl.h"
#include "core/learners/profile_file.h"
#include "core/learners/profile_model.h"
#include "core/learners/rl/a2c.h"
#include "core/learners/svm/ranksvm.h"
#include "core/learners/svm/svm.h"
#include "core/learners/svm/svr.h"

namespace geotrain {
namespace {

int classes_of(const TrainTest& d) { return d.train.classes; }
int features_of(const TrainTest& d) { return d.train.features(); }

double mlp_params(int in, const std::vector<int>& hidden, int classes) {
  double n = 0;
  for (int h : hidden) n += (double(in) + 1) * h, in = h;
  return n + (double(in) + 1) * classes;
}

std::vector<int> hidden_or(const ModelSpec& m, std::vector<int> def) { return m.hidden.empty() ? def : m.hidden; }

// `hidden` as an optional list of layer sizes.
std::function<void(JsonReader&, ModelSpec&)> read_hidden(const char* what) {
  return [what](JsonReader& r, ModelSpec& m) {
    if (!r.has("hidden")) return;
    for (auto h : r.integers("hidden", 1, 1 << 16)) m.hidden.push_back(int(h));
    if (m.hidden.empty()) r.fail("hidden", std::string(what) + " needs at least one layer size");
  };
}

std::unique_ptr<Learner> make_ranker(const ModelSpec& m, const TrainTest& d, bool listwise) {
  const auto hidden = hidden_or(m, {64});
  check_model_size("model", mlp_params(d.train.features(), hidden, 1));
  if (listwise) return std::make_unique<ListNet>(d.train.features(), hidden);
  return std::make_unique<RankNet>(d.train.features(), hidden);
}

// Sufficient statistics merged exactly, one phase-locked iteration per round, applied by the learner.
LearnerCaps statistics_caps() {
  LearnerCaps c;
  c.stale_ok = c.model_averaging = c.cuttable = c.values_meaningful = false;
  c.update_precision = c.model_precision = Precision::kExact;
  c.apply = Apply::kLearner;
  return c;
}

// Trees grown a level a round from histograms summed exactly: phase-locked, applied by the learner; the
// histograms may travel rounded (fp16), the forest only exactly.
LearnerCaps tree_caps() {
  LearnerCaps c = statistics_caps();
  c.update_precision = Precision::kRounding;
  return c;
}

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

// The pre-trained CNN's file (`base`, relative to the scenario's folder), and what writes the shipped one.
std::function<void(JsonReader&, ModelSpec&)> read_base(const std::string& shipped, const std::string& script,
                                                       bool hidden) {
  return [=](JsonReader& r, ModelSpec& m) {
    m.base = resolve_path(r.file(), r.string("base", shipped));
    if (!std::filesystem::is_regular_file(m.base))
      r.fail("base", "no pre-trained CNN at " + m.base + " (" + script + " writes " + shipped.substr(3) + ")");
    if (hidden && r.has("hidden"))
      for (auto h : r.integers("hidden", 1, 1 << 16)) m.hidden.push_back(int(h));
  };
}

std::unique_ptr<Learner> make_transfer(const std::string& name, const ModelSpec& m, const TrainTest& d,
                                       bool fine_tuning) {
  TransferOptions o;
  o.base = m.base;
  o.inputs = d.train.features();
  o.classes = d.train.classes;
  o.hidden = m.hidden;
  o.continue_head = fine_tuning;
  o.through_dense = !fine_tuning || m.param("frozen_dense") != 0;
  return std::make_unique<Transfer>(name, o);
}

LearnerCaps profile_caps() {
  LearnerCaps c;  // stand-ins: nothing to cut, filter or send for real; metrics not modelled
  c.cuttable = c.values_meaningful = c.real_mode = c.metrics_modelled = false;
  return c;
}

}  // namespace

void check_model_size(const std::string& what, double params) {
  if (params > kMaxModelParams)
    throw std::invalid_argument(what + " of " + std::to_string(std::llround(params / 1e6)) +
                                "M parameters: more than the " + std::to_string(std::llround(kMaxModelParams / 1e6)) +
                                "M geotrain trains (each role keeps copies)");
}

ComponentDoc learner_doc(const LearnerInfo& l) {
  ComponentDoc d = numeric_doc(l.doc.name, l.doc.description, l.params);
  d.params.insert(d.params.begin(), l.doc.params.begin(), l.doc.params.end());
  return d;
}

const std::vector<LearnerInfo>& learner_registry() {
  static const std::vector<LearnerInfo> registry = {
      {{"mlp",
        "multi-layer perceptron (ReLU hidden layers, softmax output) classifying labelled vectors or images",
        {{"hidden", "required", "hidden layer sizes, e.g. [128]"}}},
       "gradient-descent",
       {"labelled"},
       {{"l2", 0, 0, 10, false, "weight decay: + l2/2 |W|^2 on the weight matrices"}},
       classifier_metrics(),
       {},
       [](JsonReader& r, ModelSpec& m) {
         for (auto h : r.integers("hidden", 1, 1 << 16)) m.hidden.push_back(int(h));
         if (m.hidden.empty()) r.fail("hidden", "mlp needs at least one hidden layer size, e.g. [128]");
       },
       [](const ModelSpec& m, const TrainTest& d) {
         check_model_size("model", mlp_params(features_of(d), m.hidden, classes_of(d)));
         return std::make_unique<Mlp>(features_of(d), m.hidden, classes_of(d), float(m.param("l2")));
       }},
      {{"softmax", "multinomial logistic (softmax) regression without regularisation", {}},
       "gradient-descent",
       {"labelled"},
       {},
       classifier_metrics(),
       {},
       nullptr,
       [](const ModelSpec&, const TrainTest& d) {
         check_model_size("model", mlp_params(features_of(d), {}, classes_of(d)));
         return std::make_unique<Mlp>(features_of(d), std::vector<int>{}, classes_of(d));
       }},
      {{"logreg", "multinomial logistic regression with an L2 penalty on the weights", {}},
       "gradient-descent",
       {"labelled"},
       {{"l2", 1e-4, 0, 10, false, "L2 penalty: + l2/2 |W|^2 on the weights (not the biases)"}},
       classifier_metrics(),
       {},
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         check_model_size("model", mlp_params(features_of(d), {}, classes_of(d)));
         return std::make_unique<Mlp>(features_of(d), std::vector<int>{}, classes_of(d), float(m.param("l2")));
       }},
      {{"cnn",
        "convolutional classifier for square one-channel images: two 5x5 convolutions with max pooling, a dense layer",
        {}},
       "gradient-descent",
       {"labelled"},
       {{"conv1", 16, 1, 1024, true, "channels of the first convolution"},
        {"conv2", 32, 1, 1024, true, "channels of the second convolution"},
        {"dense", 128, 1, 65536, true, "units of the dense ReLU layer"}},
       classifier_metrics(),
       {},
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         const double c1 = m.param("conv1"), c2 = m.param("conv2"), dense = m.param("dense");
         check_model_size("model", 26 * c1 + (25 * c1 + 1) * c2 + (c2 * d.train.features() / 16 + 1) * dense +
                                       (dense + 1) * d.train.classes);
         return std::make_unique<Cnn>(d.train.features(), d.train.classes, int(c1), int(c2), int(dense));
       }},
      {{"rnn",
        "recurrent classifier: an LSTM reads each image row by row (a sequence of rows), its last state classifies",
        {}},
       "gradient-descent",
       {"labelled"},
       {{"steps", 28, 1, 100000, true, "sequence length: the rows an input is read as (features / steps per row)"},
        {"hidden", 128, 1, 16384, true, "LSTM units"}},
       classifier_metrics(),
       {},
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         const double steps = m.param("steps"), h = m.param("hidden");
         check_model_size("model", 4 * h * (d.train.features() / steps + h + 1) + (h + 1) * d.train.classes);
         return std::make_unique<Rnn>(d.train.features(), int(steps), int(h), d.train.classes);
       }},
      {{"gan",
        "generative adversarial network on images: generator and discriminator as one model through the servers",
        {{"classifier", "../models/fmnist-features.bin",
          "the feature classifier of the metrics (relative to the scenario's folder)"}}},
       "gradient-descent",
       {"labelled"},
       {{"noise", 64, 1, 4096, true, "size of the generator's noise input"},
        {"hidden", 128, 1, 8192, true,
         "the generator's first hidden layer (its second and the discriminator's are 2x)"}},
       Gan::static_metrics(),
       {},
       [](JsonReader& r, ModelSpec& m) {
         const std::string file = r.string("classifier", "../models/fmnist-features.bin");
         m.classifier = resolve_path(r.file(), file);
         if (!std::filesystem::is_regular_file(m.classifier))
           r.fail("classifier", "no feature classifier at " + m.classifier +
                                    " (scripts/train_feature_classifier.sh writes models/fmnist-features.bin)");
       },
       [](const ModelSpec& m, const TrainTest& d) {
         const double px = d.train.features(), z = m.param("noise"), h = m.param("hidden");
         check_model_size(
             "model", (z + 1) * h + (h + 1) * 2 * h + (2 * h + 1) * px + (px + 1) * 2 * h + (2 * h + 1) * h + h + 1);
         return std::make_unique<Gan>(d.train.features(), int(z), int(h),
                                      std::make_shared<FeatureSpace>(m.classifier, d.train.features()));
       }},
      {{"mf", "matrix factorisation: a rating as the dot product of user and item factors, squared error plus L2", {}},
       "gradient-descent",
       {"ratings"},
       {{"rank", 8, 1, 4096, true, "factors per user and per item"},
        {"l2", 0.0, 0, 100, false, "L2 penalty on the factors a rating touches"},
        {"init_scale", 0.1, 0, 10, false, "standard deviation of the initial factors"}},
       MatrixFactorisation::static_metrics(),
       {},
       nullptr,
       [](const ModelSpec& m, const TrainTest& d) {
         check_model_size("model", (double(d.train.users) + d.train.items) * m.param("rank"));
         return std::make_unique<MatrixFactorisation>(d.train.users, d.train.items, int(m.param("rank")),
                                                      float(m.param("l2")), float(m.param("init_scale")));
       }},
      {{"ranknet",
        "RankNet: a scoring network trained on the pairwise logistic loss of documents within a query",
        {{"hidden", "[64]", "hidden ReLU layer sizes of the scoring network"}}},
       "gradient-descent",
       {"ranking"},
       {},
       RankingScorer::static_metrics(),
       {},
       read_hidden("ranknet"),
       [](const ModelSpec& m, const TrainTest& d) { return make_ranker(m, d, false); }},
      {{"listnet",
        "ListNet: a scoring network trained on the cross-entropy of top-one probabilities per query",
        {{"hidden", "[64]", "hidden ReLU layer sizes of the scoring network"}}},
       "gradient-descent",
       {"ranking"},
       {},
       RankingScorer::static_metrics(),
       {},
       read_hidden("listnet"),
       [](const ModelSpec& m, const TrainTest& d) { return make_ranker(m, d, true); }},
      {{"autoencoder",
        "dense autoencoder reconstructing its input (labels unused): encoder layers down to the code, mirrored decoder",
        {{"hidden", "[256, 32]", "encoder layer sizes, the last one the code size"}}},
       "gradient-descent",
       {"labelled"},
       {},
       Autoencoder::static_metrics(),
       {},
       read_hidden("autoencoder"),
       [](const ModelSpec& m, const TrainTest& d) {
         const auto enc = hidden_or(m, {256, 32});
         std::vector<int> dec(enc.rbegin() + 1, enc.rend());
         dec.push_back(d.train.features());
         check_model_size("model", mlp_params(d.train.features(), enc, 0) + mlp_params(enc.back(), dec, 0));
         return std::make_unique<Autoencoder>(d.train.features(), enc);
       }},
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
      {{"feature_extraction",
        "transfer by feature extraction: a pre-trained CNN, frozen up to its dense layer, feeds a new softmax (or MLP) "
        "head trained through the servers; only the head's blocks travel",
        {{"base", "../models/fmnist-cnn-classes0-4.bin",
          "the pre-trained CNN's parameter file (relative to the scenario's folder)"},
         {"hidden", "[]", "the new head's hidden ReLU layer sizes ([]: a softmax on the features)"}}},
       "incremental",
       {"labelled"},
       {},
       classifier_metrics(),
       {},
       read_base("../models/fmnist-cnn-classes0-4.bin", "scripts/train_transfer_bases.sh", true),
       [](const ModelSpec& m, const TrainTest& d) { return make_transfer("feature_extraction", m, d, false); }},
      {{"fine_tuning",
        "fine-tuning: a pre-trained CNN continues on new data with its convolutions frozen; the layers above start "
        "from the pre-trained values, and only they travel",
        {{"base", "../models/fmnist-cnn-first-half.bin",
          "the pre-trained CNN's parameter file (relative to the scenario's folder)"}}},
       "incremental",
       {"labelled"},
       {{"frozen_dense", 0, 0, 1, true, "1: the dense layer frozen too (only the output layer trains)"}},
       classifier_metrics(),
       {},
       read_base("../models/fmnist-cnn-first-half.bin", "scripts/train_transfer_bases.sh", false),
       [](const ModelSpec& m, const TrainTest& d) { return make_transfer("fine_tuning", m, d, true); }},
      {{"profile",
        "a workload profile: a published model's tensor sizes and compute, for traffic and time studies "
        "(metrics not modelled; simulation only)",
        {{"profile", "(this or file)", "resnet50 | vgg16 | bert-base | gpt2-small | mlp-quickstart | softmax-fashion"},
         {"file", "(this or profile)",
          "or your own model: a profile file (scenarios/profile.schema.json), relative to the scenario's "
          "folder"}}},
       "workload",
       {"labelled"},
       {},
       classifier_metrics(),
       profile_caps(),
       [](JsonReader& r, ModelSpec& m) {
         if (r.has("file") == r.has("profile"))
           r.fail("profile", "expected either \"profile\" (a built-in profile) or \"file\" (your own), not both");
         if (r.has("file")) {
           m.profile_file = resolve_path(r.file(), r.string("file", std::nullopt));
           m.profile = load_profile_file(m.profile_file).name;  // checked now: errors at load time, exit 2
           return;
         }
         std::vector<std::string> names;
         for (const auto& p : workload_profiles()) names.push_back(p.name);
         m.profile = r.string("profile", std::nullopt, names);
       },
       [](const ModelSpec& m, const TrainTest& d) {
         return std::make_unique<ProfileModel>(
             m.profile_file.empty() ? *find_profile(m.profile) : load_profile_file(m.profile_file), classes_of(d));
       }},
  };
  return registry;
}

}  // namespace geotrain
