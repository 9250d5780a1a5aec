// The learner registry's entries for the gradient-descent family: neural classifiers, matrix factorisation, neural
// rankers, the autoencoder and the GAN (core/learners/learner_registry.h: what an entry says).
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/learners/classifier.h"
#include "core/learners/gd/autoencoder.h"
#include "core/learners/gd/cnn.h"
#include "core/learners/gd/gan.h"
#include "core/learners/gd/listnet.h"
#include "core/learners/gd/mf.h"
#include "core/learners/gd/ranknet.h"
#include "core/learners/gd/rnn.h"
#include "core/learners/learner_entries.h"
#include "core/learners/metrics.h"
#include "core/learners/mlp.h"

namespace geotrain {
namespace {

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

}  // namespace

std::vector<LearnerInfo> gradient_descent_learners() {
  return {
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
  };
}

}  // namespace geotrain
