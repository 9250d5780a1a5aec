// The datasets read from files (core/data/formats/): each entry's reader takes
// its keys from the scenario's `dataset` object, paths relative to the
// scenario's folder.
#include <algorithm>

#include "core/data/dataset_registry.h"
#include "core/data/formats/csv_format.h"
#include "core/data/formats/npy_format.h"
#include "core/data/formats/svmlight_format.h"

namespace geotrain {
namespace {

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// One set of files: train (required) and test (optional), or for npy
// train_x, train_y, test_x, test_y; paths relative to the scenario.
void read_paths(JsonReader& r, bool npy, std::string* train, std::string* test, NpyPaths* arrays) {
  const auto path = [&](const char* key) { return r.has(key) ? resolve_path(r.file(), r.string(key, {})) : ""; };
  if (!npy) {
    *train = resolve_path(r.file(), r.string("train", {}));
    *test = path("test");
    return;
  }
  arrays->train_x = resolve_path(r.file(), r.string("train_x", {}));
  arrays->train_y = resolve_path(r.file(), r.string("train_y", {}));
  arrays->test_x = path("test_x");
  arrays->test_y = path("test_y");
  if (arrays->test_x.empty() != arrays->test_y.empty())
    r.fail(arrays->test_x.empty() ? "test_y" : "test_x", "give test_x and test_y together, or neither");
}

// The job's files, or under `per_dc` each data centre's (the DC names are
// checked against the topology by the scenario loader); then test_fraction.
void read_files(JsonReader& r, DatasetSpec& d, bool npy = false) {
  if (r.has("per_dc")) {
    const std::vector<const char*> job_wide = npy ? std::vector<const char*>{"train_x", "train_y", "test_x", "test_y"}
                                                  : std::vector<const char*>{"train", "test"};
    for (const char* key : job_wide)
      if (r.has(key)) r.fail(key, "with per_dc, each data centre names its own files: no job-wide ones");
    const nlohmann::json& dcs = r.raw("per_dc");
    if (!dcs.is_object() || dcs.empty()) r.fail("per_dc", "expected an object: data centre -> its files");
    for (const auto& [dc, files] : dcs.items()) {
      nlohmann::json used;
      JsonReader f(files, r.file(), r.pointer("per_dc") + "/" + dc, &used);
      DatasetSpec::DcFiles out;
      out.dc = dc;
      read_paths(f, npy, &out.train_file, &out.test_file, &out.npy);
      f.finish();
      d.per_dc.push_back(std::move(out));
    }
  } else {
    read_paths(r, npy, &d.train_file, &d.test_file, &d.npy);
  }
  d.test_fraction = r.number("test_fraction", 0.2, 0.0, 1.0);
  const auto tested = [npy](const std::string& test, const NpyPaths& a) { return !(npy ? a.test_x : test).empty(); };
  const bool all_tested = d.per_dc.empty() ? tested(d.test_file, d.npy)
                                           : std::all_of(d.per_dc.begin(), d.per_dc.end(),
                                                         [&](const auto& f) { return tested(f.test_file, f.npy); });
  if (!all_tested && !(d.test_fraction > 0 && d.test_fraction < 1))
    r.fail("test_fraction", "without a test file, a fraction between 0 and 1 (exclusive) of the rows is held out");
}

// A column named by its header name or its 0-based index.
std::string column(JsonReader& r, const std::string& key, const nlohmann::json& v) {
  if (v.is_string() && !v.get<std::string>().empty()) return v.get<std::string>();
  if (v.is_number_unsigned()) return std::to_string(v.get<std::uint64_t>());
  r.fail(key, "expected a column's name or its 0-based index");
}

void read_csv_keys(JsonReader& r, DatasetSpec& d) {
  read_files(r, d);
  CsvOptions& o = d.csv;
  o.label = column(r, "label", r.raw("label"));
  const std::string task = r.string("task", "classification", {"classification", "regression"});
  o.regression = task == "regression";
  d.produces = o.regression ? "regression" : "labelled";
  const std::string& first = d.per_dc.empty() ? d.train_file : d.per_dc.front().train_file;
  const bool tsv = ends_with(first, ".tsv") || ends_with(first, ".tsv.gz");
  const std::string delim = r.string("delimiter", tsv ? "tab" : ",", {",", ";", "|", "tab", " "});
  o.delimiter = delim == "tab" ? '\t' : delim[0];
  o.header = r.boolean("header", true);
  o.skip_rows = int(r.integer("skip_rows", 0, 0, 1'000'000));
  const std::string missing = r.string("missing", "error", {"error", "zero", "mean"});
  o.missing = missing == "zero"   ? CsvOptions::Missing::kZero
              : missing == "mean" ? CsvOptions::Missing::kMean
                                  : CsvOptions::Missing::kError;
  const nlohmann::json& ignore = r.raw("ignore");
  if (!ignore.is_null()) {
    if (!ignore.is_array()) r.fail("ignore", "expected an array of column names or indices");
    for (const auto& c : ignore) o.ignore.push_back(column(r, "ignore", c));
  }
  const nlohmann::json& cat = r.raw("categorical");
  if (!cat.is_null()) {
    if (!cat.is_object()) r.fail("categorical", "expected an object: column -> \"hash\" or its values in order");
    for (const auto& [name, how] : cat.items()) {
      if (how.is_string() && how.get<std::string>() == "hash") {
        o.hashed.push_back(name);
      } else if (how.is_array() && !how.empty() &&
                 std::all_of(how.begin(), how.end(), [](const nlohmann::json& v) { return v.is_string(); })) {
        o.vocabulary[name] = how.get<std::vector<std::string>>();
      } else {
        r.fail("categorical", "column '" + name + "': expected \"hash\" or an array of its values (strings)");
      }
    }
  }
  o.hash_width = int(r.integer("hash_width", 1024, 1, 1 << 24));
  o.classes = r.strings("classes", "class value");
  if (!o.classes.empty() && o.classes.size() < 2) r.fail("classes", "at least two classes to tell apart");
  o.standardize = r.boolean("standardize", false);
  o.agreed_labels = !d.per_dc.empty();
}

void read_svmlight_keys(JsonReader& r, DatasetSpec& d) {
  read_files(r, d);
  SvmlightOptions& o = d.svmlight;
  const std::string task = r.string("task", "classification", {"classification", "regression", "ranking"});
  o.task = task == "regression" ? SvmlightOptions::Task::kRegression
           : task == "ranking"  ? SvmlightOptions::Task::kRanking
                                : SvmlightOptions::Task::kClassification;
  d.produces = task == "classification" ? "labelled" : task;
  o.features = int(r.integer("features", 0, 0, 100'000'000));
  const std::string base = r.string("index_base", "auto", {"auto", "0", "1"});
  if (r.has("classes")) {
    o.classes = r.numbers("classes", -1e9, 1e9);
    std::vector<double> sorted = o.classes;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.size() < 2 || std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
      r.fail("classes", "at least two label values, each once");
  }
  if (!d.per_dc.empty() && task == "classification" && o.classes.empty())
    r.fail("classes", "with per_dc, list the label values (every data centre must map them to the same classes)");
  o.base = base == "0"   ? SvmlightOptions::Base::kZero
           : base == "1" ? SvmlightOptions::Base::kOne
                         : SvmlightOptions::Base::kAuto;
}

void read_npy_keys(JsonReader& r, DatasetSpec& d) {
  read_files(r, d, /*npy=*/true);
  const std::string task = r.string("task", "classification", {"classification", "regression"});
  d.produces = task == "regression" ? "regression" : "labelled";
}

const std::vector<ParamDoc> kFileParams = {
    {"train", "required", "the training file (gzip'd or plain), relative to the scenario's folder"},
    {"test", "none", "the test file; without one, test_fraction of the training rows are held out"},
    {"test_fraction", "0.2", "the share of training rows held out when there is no test file (seeded)"},
    {"per_dc", "none",
     "each data centre's own files instead of the job's: {\"dc-a\": {\"train\": ..., \"test\": ...}}; "
     "its workers learn from them alone"}};

std::vector<ParamDoc> with_files(std::vector<ParamDoc> own) {
  own.insert(own.begin(), kFileParams.begin(), kFileParams.end());
  return own;
}

}  // namespace

std::vector<DatasetInfo> file_datasets() {
  return {
      {{"csv",
        "a CSV or TSV file per set: one row per sample, a label or target column, the rest features "
        "(core/data/formats/csv_format.h)",
        with_files({{"label", "required", "the label (or target) column: its header name or 0-based index"},
                    {"task", "classification", "classification (labels) or regression (a numeric target)"},
                    {"delimiter", ", (tab for .tsv)", "one of , ; | tab and a space"},
                    {"header", "true", "the first row (after skip_rows) names the columns"},
                    {"skip_rows", "0", "lines skipped before the header"},
                    {"missing", "error",
                     "empty, NA, NaN, null, ?: refused (error), read as 0 (zero) or as the "
                     "column's training mean (mean)"},
                    {"ignore", "none", "columns not read: names or indices"},
                    {"categorical", "none",
                     "column -> \"hash\" (hashed into hash_width shared buckets) or its "
                     "values in order (one-hot)"},
                    {"hash_width", "1024", "buckets of the hashed columns"},
                    {"classes", "derived",
                     "the label values in class order (default: whole numbers as "
                     "themselves, else sorted)"},
                    {"standardize", "false", "scale each feature to mean 0, sd 1 by the training statistics"}})},
       "labelled",
       read_csv_keys,
       [](const DatasetSpec& d, std::uint64_t seed) {
         return load_csv(d.csv, d.train_file, d.test_file, d.test_fraction, seed);
       }},
      {{"svmlight",
        "an SVMlight / LIBSVM file per set: <label> [qid:<q>] <index>:<value> ... (core/data/formats/"
        "svmlight_format.h)",
        with_files({{"task", "classification", "classification, regression, or ranking (grades, rows grouped by qid)"},
                    {"features", "0 (from the data)", "the feature count"},
                    {"index_base", "auto", "0 or 1: where indices start (auto: 0 if any index is 0, else 1)"},
                    {"classes", "derived",
                     "classification: the label values, class i the i-th smallest (default: "
                     "the training file's; required with per_dc)"}})},
       "labelled",
       read_svmlight_keys,
       [](const DatasetSpec& d, std::uint64_t seed) {
         return load_svmlight(d.svmlight, d.train_file, d.test_file, d.test_fraction, seed);
       }},
      {{"npy",
        "NumPy .npy arrays (or .npy.gz): features of shape (rows, ...) and labels or targets of shape (rows,) "
        "(core/data/formats/npy_format.h)",
        {{"train_x", "required", "the training features"},
         {"train_y", "required", "the training labels or targets"},
         {"test_x", "none", "the test features (with test_y)"},
         {"test_y", "none", "the test labels or targets"},
         {"test_fraction", "0.2", "the share of training rows held out without test files (seeded)"},
         {"per_dc", "none", "each data centre's own arrays: {\"dc-a\": {\"train_x\": ..., \"train_y\": ...}}"},
         {"task", "classification", "classification (whole-number labels 0..k-1) or regression"}}},
       "labelled",
       read_npy_keys,
       [](const DatasetSpec& d, std::uint64_t seed) {
         return load_npy(d.npy, d.produces == "regression", d.test_fraction, seed);
       }},
  };
}

}  // namespace geotrain
