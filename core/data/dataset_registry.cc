#include "core/data/dataset_registry.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "core/data/idx_reader.h"
#include "core/data/ranking.h"
#include "core/data/ratings.h"
#include "core/data/regression.h"
#include "core/data/synthetic.h"

namespace geotrain {
namespace {

std::function<void(JsonReader&, DatasetSpec&)> read_idx(std::optional<std::string> default_path) {
  return [default_path](JsonReader& r, DatasetSpec& d) {
    d.path = r.string("path", default_path);
    d.train_samples = int(r.integer("train_samples", 0, 0, 100'000'000));
    d.test_samples = int(r.integer("test_samples", 0, 0, 100'000'000));
    d.skip_train = int(r.integer("skip_train", 0, 0, 100'000'000));
    if (r.has("classes")) {
      for (auto c : r.integers("classes", 0, 1 << 16)) {
        if (std::find(d.keep_classes.begin(), d.keep_classes.end(), int(c)) != d.keep_classes.end())
          r.fail("classes", "class " + std::to_string(c) + " listed twice");
        d.keep_classes.push_back(int(c));
      }
      if (d.keep_classes.size() < 2) r.fail("classes", "at least two classes to tell apart");
    }
  };
}

TrainTest load_idx(const DatasetSpec& d, std::uint64_t) {
  TrainTest tt = load_idx_dataset(d.path, d.kind);
  for (int c : d.keep_classes)
    if (c >= tt.train.classes)
      throw std::invalid_argument("dataset.classes: class " + std::to_string(c) + " not in " + d.path + " (0 to " +
                                  std::to_string(tt.train.classes - 1) + ")");
  // One step at a time, each only when asked for: a chained expression kept every intermediate
  // copy of the 188 MB training matrix alive at once (800 MB peak per process; launch's 33
  // processes of the 8-DC headline did not fit in 23 GB).
  const auto narrow = [&d](Dataset& ds, int skip, int n) {
    if (skip > 0) ds = ds.from(skip);
    if (!d.keep_classes.empty()) ds = ds.only_classes(d.keep_classes);
    if (n > 0 && n < ds.size()) ds = ds.head(n);
  };
  narrow(tt.train, d.skip_train, d.train_samples);
  narrow(tt.test, 0, d.test_samples);
  return tt;
}

// A generated kind whose parameters are all numbers: its doc and reader from one list.
DatasetInfo generated(const std::string& name, const std::string& line, const std::string& kind,
                      std::vector<NumericParam> params,
                      std::function<TrainTest(const DatasetSpec&, std::uint64_t)> load) {
  return {numeric_doc(name, line, params), kind,
          [params](JsonReader& r, DatasetSpec& d) { d.params = read_numeric_params(r, params); }, std::move(load)};
}

const std::vector<ParamDoc> kIdxParams = {{"skip_train", "0", "skip the first N training samples (then train_samples)"},
                                          {"classes", "all", "only these classes, relabelled 0, 1, ... in this order"},
                                          {"train_samples", "0 (all)", "use only the first N training samples"},
                                          {"test_samples", "0 (all)", "use only the first N test samples"}};

}  // namespace

const std::vector<DatasetInfo>& dataset_registry() {
  static const std::vector<DatasetInfo> registry = {
      {{"fashion-mnist", "Fashion-MNIST IDX files (Debian package dataset-fashion-mnist)",
        [] {
          auto p = kIdxParams;
          p.insert(p.begin(), {"path", "/usr/share/datasets/fashion-mnist", "directory of the IDX files"});
          return p;
        }()},
       "labelled",
       read_idx("/usr/share/datasets/fashion-mnist"),
       load_idx},
      {{"idx", "any MNIST-format IDX directory",
        [] {
          auto p = kIdxParams;
          p.insert(p.begin(), {"path", "required", "directory of the IDX files"});
          return p;
        }()},
       "labelled",
       read_idx(std::nullopt),
       load_idx},
      {{"synthetic",
        "Gaussian blobs generated from the seed",
        {{"features", "16", "input size"},
         {"classes", "4", "number of classes"},
         {"train", "2000", "training samples"},
         {"test", "500", "test samples"},
         {"noise", "1.0", "blob spread"}}},
       "labelled",
       [](JsonReader& r, DatasetSpec& d) {
         d.features = int(r.integer("features", 16, 1, 100000));
         d.classes = int(r.integer("classes", 4, 2, 1000));
         d.synthetic_train = int(r.integer("train", 2000, 1, 10'000'000));
         d.synthetic_test = int(r.integer("test", 500, 1, 10'000'000));
         d.noise = r.number("noise", 1.0, 0, 1e6);
         // Generated in memory, as floats: refuse what would not fit rather than die in the allocator.
         const double values = double(d.features) * double(d.synthetic_train + d.synthetic_test);
         if (values > 5e8)
           r.fail("", "synthetic data of features x (train + test) = " + std::to_string(std::llround(values / 1e6)) +
                          "M values: more than the 500M (2 GB) geotrain generates");
       },
       [](const DatasetSpec& d, std::uint64_t seed) {
         SyntheticSpec s;
         s.features = d.features;
         s.classes = d.classes;
         s.train = d.synthetic_train;
         s.test = d.synthetic_test;
         s.noise = float(d.noise);
         s.seed = seed;
         return make_synthetic(s);
       }},
      generated("ratings",
                "rating triples from known low-rank factors plus Gaussian noise (r = p_u . q_i + e): "
                "the best held-out RMSE is sigma",
                "ratings",
                {{"users", 300, 1, 1e6, true, "users"},
                 {"items", 300, 1, 1e6, true, "items"},
                 {"rank", 8, 1, 1000, true, "rank of the true factors"},
                 {"sigma", 0.1, 0, 100, false, "standard deviation of the rating noise"},
                 {"train", 60000, 1, 1e8, true, "training ratings"},
                 {"test", 10000, 1, 1e8, true, "held-out ratings"}},
                [](const DatasetSpec& d, std::uint64_t seed) {
                  return make_ratings({int(d.param("users")), int(d.param("items")), int(d.param("rank")),
                                       d.param("sigma"), int(d.param("train")), int(d.param("test")), seed});
                }),
      generated("ranking",
                "queries with graded documents (0-4) from a known nonlinear scoring function plus noise "
                "(core/data/ranking.h)",
                "ranking",
                {{"train_queries", 2000, 1, 1e7, true, "training queries"},
                 {"test_queries", 500, 1, 1e7, true, "held-out queries"},
                 {"docs", 20, 2, 10000, true, "documents per query"},
                 {"features", 10, 6, 10000, true, "features per document"},
                 {"noise", 0.3, 0, 100, false, "standard deviation of the noise on the true score"}},
                [](const DatasetSpec& d, std::uint64_t seed) {
                  return make_ranking({int(d.param("train_queries")), int(d.param("test_queries")),
                                       int(d.param("docs")), int(d.param("features")), d.param("noise"), seed});
                }),
      generated("friedman1",
                "regression inputs x ~ U[0,1]^features with Friedman #1's known target 10 sin(pi x0 x1) + "
                "20 (x2 - 0.5)^2 + 10 x3 + 5 x4 plus Gaussian noise: the best held-out RMSE is noise "
                "(core/data/regression.h)",
                "regression",
                {{"train", 20000, 1, 1e8, true, "training samples"},
                 {"test", 5000, 1, 1e8, true, "held-out samples"},
                 {"features", 10, 5, 10000, true, "inputs (only the first five matter)"},
                 {"noise", 1.0, 0, 100, false, "standard deviation of the noise on the target"}},
                [](const DatasetSpec& d, std::uint64_t seed) {
                  return make_friedman1(
                      {int(d.param("train")), int(d.param("test")), int(d.param("features")), d.param("noise"), seed});
                }),
      generated("cartpole",
                "the classic cart-pole (Barto, Sutton and Anderson 1983; 500 steps at most): seeded environments "
                "for the workers to act in, and fixed ones to evaluate on",
                "environment",
                {{"train_envs", 256, 1, 1e7, true, "environment instances the workers share out (a unit of a shard)"},
                 {"test_episodes", 100, 1, 1e6, true, "evaluation episodes, from fixed seeds"}},
                [](const DatasetSpec& d, std::uint64_t) {
                  auto envs = [](int n, const char* name) {
                    Dataset e;
                    e.name = name;
                    e.kind = "environment";
                    e.x.resize(1, n);
                    for (int i = 0; i < n; ++i) e.x(0, i) = float(i);
                    return e;
                  };
                  return TrainTest{envs(int(d.param("train_envs")), "cartpole-train"),
                                   envs(int(d.param("test_episodes")), "cartpole-test")};
                }),
  };
  static const std::vector<DatasetInfo> all = [] {
    std::vector<DatasetInfo> v = registry;
    for (auto& f : file_datasets()) v.push_back(std::move(f));
    return v;
  }();
  return all;
}

std::string data_kind_of(const DatasetSpec& d) {
  if (!d.produces.empty()) return d.produces;
  const DatasetInfo* info = find_entry(dataset_registry(), d.kind);
  return info ? info->data_kind : "labelled";
}

}  // namespace geotrain
