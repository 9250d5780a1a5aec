#include "core/data/dataset_registry.h"

#include <cmath>
#include <string>

#include "core/data/idx_reader.h"
#include "core/data/synthetic.h"

namespace geotrain {
namespace {

std::function<void(JsonReader&, DatasetSpec&)> read_idx(std::optional<std::string> default_path) {
  return [default_path](JsonReader& r, DatasetSpec& d) {
    d.path = r.string("path", default_path);
    d.train_samples = int(r.integer("train_samples", 0, 0, 100'000'000));
    d.test_samples = int(r.integer("test_samples", 0, 0, 100'000'000));
  };
}

TrainTest load_idx(const DatasetSpec& d, std::uint64_t) {
  TrainTest tt = load_idx_dataset(d.path, d.kind);
  tt.train = tt.train.head(d.train_samples);
  tt.test = tt.test.head(d.test_samples);
  return tt;
}

const std::vector<ParamDoc> kIdxParams = {{"train_samples", "0 (all)", "use only the first N training samples"},
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
       read_idx("/usr/share/datasets/fashion-mnist"),
       load_idx},
      {{"idx", "any MNIST-format IDX directory",
        [] {
          auto p = kIdxParams;
          p.insert(p.begin(), {"path", "required", "directory of the IDX files"});
          return p;
        }()},
       read_idx(std::nullopt),
       load_idx},
      {{"synthetic",
        "Gaussian blobs generated from the seed",
        {{"features", "16", "input size"},
         {"classes", "4", "number of classes"},
         {"train", "2000", "training samples"},
         {"test", "500", "test samples"},
         {"noise", "1.0", "blob spread"}}},
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
  };
  return registry;
}

}  // namespace geotrain
