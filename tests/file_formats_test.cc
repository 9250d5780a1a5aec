// Datasets read from files: CSV/TSV, SVMlight and NumPy round trips through
// what a user writes, gzip'd and plain alike, and the bad input each refuses
// with the file, the line and the column. Small files, written by the test.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "api/runs.h"
#include "api/scenarios.h"
#include "core/data/formats/csv_format.h"
#include "core/data/formats/npy_format.h"
#include "core/data/formats/svmlight_format.h"
#include "core/data/formats/text_lines.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

namespace fs = std::filesystem;

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("geotrain-formats-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = (dir_ / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  std::string write_gz(const std::string& name, const std::string& text) {
    const std::string p = (dir_ / name).string();
    gzFile f = gzopen(p.c_str(), "wb");
    gzwrite(f, text.data(), unsigned(text.size()));
    gzclose(f);
    return p;
  }
  fs::path dir_;
};

// The message of the runtime_error `fn` throws ("" if none).
template <class Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

const char* kCsv =
    "id,size,colour,\"shop, town\",species\n"
    "1,1.5,red,north,cat\n"
    "2,-2e1,blue,\"south\",dog\n"
    "3,+3,red,north,cat\n"
    "4,0.25,green,\"we\"\"st\",bird\n";

CsvOptions csv_options() {
  CsvOptions o;
  o.label = "species";
  o.ignore = {"id"};
  o.vocabulary["colour"] = {"red", "green", "blue"};
  o.hashed = {"shop, town"};
  o.hash_width = 4;
  return o;
}

TEST_F(Files, ACsvFileReadsItsNumbersCategoriesAndLabels) {
  const std::string p = write("a.csv", kCsv);
  const TrainTest tt = load_csv(csv_options(), p, p, 0, 1);
  const Dataset& d = tt.train;
  ASSERT_EQ(d.size(), 4);
  ASSERT_EQ(d.features(), 1 + 3 + 4);  // size, colour one-hot, four hashed buckets
  EXPECT_EQ(d.classes, 3);
  EXPECT_EQ(d.y, (std::vector<int>{1, 2, 1, 0}));  // bird, cat, dog in sorted order
  EXPECT_FLOAT_EQ(d.x(0, 1), -20.0f);
  EXPECT_FLOAT_EQ(d.x(0, 2), 3.0f);
  EXPECT_FLOAT_EQ(d.x(1, 0), 1.0f);  // red
  EXPECT_FLOAT_EQ(d.x(3, 1), 1.0f);  // blue
  EXPECT_FLOAT_EQ(d.x(2, 3), 1.0f);  // green
  for (int r = 0; r < 4; ++r) EXPECT_FLOAT_EQ(d.x.col(r).tail(4).sum(), 1.0f) << "one hashed value per row";
  EXPECT_EQ(d.x.col(0).tail(4), d.x.col(2).tail(4)) << "the same town hashes to the same bucket";

  const std::string gz = write_gz("a.csv.gz", kCsv);
  const TrainTest g = load_csv(csv_options(), gz, gz, 0, 1);
  EXPECT_EQ(g.train.x, d.x) << "gzip'd and plain read alike";
  EXPECT_EQ(g.train.y, d.y);
}

TEST_F(Files, ACsvFileWithoutATestFileHoldsOutASeededShare) {
  std::string text = "a,b,label\n";
  for (int i = 0; i < 100; ++i)
    text += std::to_string(i) + "," + std::to_string(i % 7) + "," + std::to_string(i % 2) + "\n";
  const std::string p = write("t.tsv", [&] {
    std::string t = text;
    std::replace(t.begin(), t.end(), ',', '\t');
    return t;
  }());
  CsvOptions o;
  o.label = "2";  // by index
  o.delimiter = '\t';
  const TrainTest a = load_csv(o, p, "", 0.25, 7), b = load_csv(o, p, "", 0.25, 7), c = load_csv(o, p, "", 0.25, 8);
  EXPECT_EQ(a.train.size(), 75);
  EXPECT_EQ(a.test.size(), 25);
  EXPECT_EQ(a.test.x, b.test.x) << "the same seed holds out the same rows";
  EXPECT_NE(a.test.x, c.test.x);
  EXPECT_FLOAT_EQ(a.train.x.row(0).sum() + a.test.x.row(0).sum(), 4950.0f) << "every row in one part";
}

TEST_F(Files, MissingValuesAreRefusedOrFilledAsAsked) {
  const std::string p = write("m.csv", "x,y,label\n1,,0\n3,4,1\nNA,8,0\n");
  CsvOptions o;
  o.label = "label";
  EXPECT_NE(error_of([&] { load_csv(o, p, p, 0, 1); }).find("m.csv:2: column 2 (y): a missing value"),
            std::string::npos)
      << error_of([&] { load_csv(o, p, p, 0, 1); });
  o.missing = CsvOptions::Missing::kMean;
  const Dataset d = load_csv(o, p, p, 0, 1).train;
  EXPECT_FLOAT_EQ(d.x(1, 0), 6.0f);  // the mean of 4 and 8
  EXPECT_FLOAT_EQ(d.x(0, 2), 2.0f);
  o.missing = CsvOptions::Missing::kZero;
  EXPECT_FLOAT_EQ(load_csv(o, p, p, 0, 1).train.x(1, 0), 0.0f);
  o.standardize = true;
  const Dataset s = load_csv(o, p, p, 0, 1).train;
  EXPECT_NEAR(s.x.row(0).mean(), 0.0f, 1e-6);
  EXPECT_NEAR(std::sqrt(s.x.row(0).array().square().mean()), 1.0f, 1e-5);
}

TEST_F(Files, BadCsvRowsNameTheFileLineAndColumn) {
  CsvOptions o;
  o.label = "label";
  const auto err = [&](const std::string& text, const std::string& test_text = "") {
    const std::string p = write("bad.csv", text);
    const std::string t = test_text.empty() ? p : write("bad-test.csv", test_text);
    return error_of([&] { load_csv(o, p, t, 0, 1); });
  };
  EXPECT_NE(err("a,label\n1,0\nx1,1\n").find("bad.csv:3: column 1 (a): expected a number, got 'x1'"),
            std::string::npos);
  EXPECT_NE(err("a,label\n1,0\n2,1,3\n").find("bad.csv:3: expected 2 fields, got 3"), std::string::npos);
  EXPECT_NE(err("a,label\ninf,0\n2,1\n").find("'inf' is not finite"), std::string::npos);
  EXPECT_NE(err("a,label\n\"1,0\n").find("runs past the end of its line"), std::string::npos);
  EXPECT_NE(err("").find("empty file"), std::string::npos);
  EXPECT_NE(err("a,label\n").find("no rows"), std::string::npos);
  EXPECT_NE(err("a,label\n1,0\n1,0\n").find("one class only"), std::string::npos);
  EXPECT_NE(err("a,label\n1,0\n2,1\n", "a,label\n1,2\n").find("bad-test.csv:2: column 2 (label): label '2' is not"),
            std::string::npos);
  EXPECT_NE(err("a,label\n1,0\n2,1\n", "a,b,label\n1,1,0\n").find("its columns differ"), std::string::npos);
  o.label = "nonesuch";
  EXPECT_NE(err("a,label\n1,0\n2,1\n").find("label 'nonesuch' is not a column (columns: a, label"), std::string::npos);
}

TEST_F(Files, ALineLongerThanTheLimitATruncatedGzipAndAChangedFileAreRefused) {
  const std::string long_line = write("long.csv", "a,label\n" + std::string(3 << 20, '1') + ",0\n");
  TextLines in(long_line, std::size_t(1) << 20);
  std::string_view line;
  ASSERT_TRUE(in.next(&line));
  EXPECT_NE(error_of([&] { in.next(&line); }).find("long.csv:2: a line longer than 1 MiB"), std::string::npos);

  std::string rows = "a,label\n";
  for (int i = 0; i < 20000; ++i) rows += std::to_string(i * 7919 % 10007) + "," + std::to_string(i % 2) + "\n";
  const std::string gz = write_gz("cut.csv.gz", rows);
  fs::resize_file(gz, fs::file_size(gz) / 2);
  CsvOptions o;
  o.label = "label";
  EXPECT_NE(error_of([&] { load_csv(o, gz, gz, 0, 1); }).find("the gzip stream ends early"), std::string::npos)
      << error_of([&] { load_csv(o, gz, gz, 0, 1); });

  const std::string grows = write("grows.csv", rows);
  TextLines reading(grows);
  ASSERT_TRUE(reading.next(&line));
  std::ofstream(grows, std::ios::app) << "1,1\n";
  EXPECT_NE(error_of([&] {
              while (reading.next(&line)) {
              }
            }).find("the file changed while it was read"),
            std::string::npos);
}

TEST_F(Files, AnSvmlightFileReadsSparseRowsLabelsAndQueries) {
  const std::string p = write("a.svm",
                              "# a comment line\n"
                              "+1 1:0.5 3:2 # trailing comment\n"
                              "-1 2:1.5\n"
                              "\n"
                              "+1 3:-1\n");
  const TrainTest tt = load_svmlight({}, p, p, 0, 1);
  const Dataset& d = tt.train;
  ASSERT_EQ(d.size(), 3);
  ASSERT_EQ(d.features(), 3);  // 1-based: 1..3
  EXPECT_EQ(d.y, (std::vector<int>{1, 0, 1}));
  EXPECT_FLOAT_EQ(d.x(0, 0), 0.5f);
  EXPECT_FLOAT_EQ(d.x(2, 0), 2.0f);
  EXPECT_FLOAT_EQ(d.x(1, 1), 1.5f);
  EXPECT_FLOAT_EQ(d.x(2, 2), -1.0f);
  EXPECT_FLOAT_EQ(d.x.col(1).sum(), 1.5f);

  SvmlightOptions rank;
  rank.task = SvmlightOptions::Task::kRanking;
  const std::string r = write_gz("r.svm.gz", "2 qid:7 0:1\n0 qid:7 1:1\n1 qid:9 0:0.5\n0 qid:9 1:2\n3 qid:9 0:3\n");
  const Dataset q = load_svmlight(rank, r, r, 0, 1).train;
  EXPECT_EQ(q.kind, "ranking");
  EXPECT_EQ(q.query_start, (std::vector<int>{0, 2, 5}));
  EXPECT_EQ(q.target, (std::vector<float>{2, 0, 1, 0, 3}));
  EXPECT_EQ(q.features(), 2);  // a 0 index: 0-based
  const TrainTest split = load_svmlight(rank, r, "", 0.5, 1);
  EXPECT_EQ(split.train.size() + split.test.size(), 2) << "held out by whole queries";
}

TEST_F(Files, BadSvmlightRowsNameTheFileAndLine) {
  const auto err = [&](const std::string& text, SvmlightOptions o = {}) {
    const std::string p = write("bad.svm", text);
    return error_of([&] { load_svmlight(o, p, p, 0, 1); });
  };
  EXPECT_NE(err("1 3:1 2:1\n").find("bad.svm:1: feature 2 after 3: indices must increase"), std::string::npos);
  EXPECT_NE(err("1 1:1\nx 1:1\n").find("bad.svm:2: expected a number as the label, got 'x'"), std::string::npos);
  EXPECT_NE(err("1 1:nan\n").find("expected a finite number"), std::string::npos);
  EXPECT_NE(err("1 1\n").find("expected index:value"), std::string::npos);
  SvmlightOptions rank;
  rank.task = SvmlightOptions::Task::kRanking;
  EXPECT_NE(err("1 qid:1 1:1\n0 qid:2 1:1\n1 qid:1 1:2\n", rank).find("qid 1 again"), std::string::npos);
  EXPECT_NE(err("1 1:1\n", rank).find("no qid"), std::string::npos);
  SvmlightOptions one;
  one.base = SvmlightOptions::Base::kOne;
  EXPECT_NE(err("1 0:1\n0 1:1\n", one).find("feature index 0 in a file read as 1-based"), std::string::npos);
  SvmlightOptions narrow;
  narrow.features = 2;
  EXPECT_NE(err("1 1:1\n0 5:1\n", narrow).find("feature index 5 past the 2 features"), std::string::npos);
}

// A version 1.0 .npy file of `shape` with `descr`, the bytes given.
std::string npy(const std::string& descr, const std::string& shape, const std::string& data, bool fortran = false) {
  std::string h =
      "{'descr': '" + descr + "', 'fortran_order': " + (fortran ? "True" : "False") + ", 'shape': (" + shape + "), }";
  while ((10 + h.size() + 1) % 64) h += ' ';
  h += '\n';
  std::string out = "\x93NUMPY";
  out += char(1);
  out += char(0);
  out += char(h.size() & 0xff);
  out += char(h.size() >> 8);
  return out + h + data;
}
template <class T>
std::string bytes(std::initializer_list<T> v, bool big_endian = false) {
  std::string out;
  for (T x : v) {
    char b[sizeof(T)];
    std::memcpy(b, &x, sizeof(T));
    if (big_endian) std::reverse(b, b + sizeof(T));
    out.append(b, sizeof(T));
  }
  return out;
}

TEST_F(Files, NumpyArraysReadInEveryLayoutAndType) {
  const std::string x = write("x.npy", npy("<f4", "3, 2", bytes<float>({1, 2, 3, 4, 5, 6})));
  const std::string y = write("y.npy", npy("<i8", "3,", bytes<std::int64_t>({0, 2, 1})));
  NpyPaths p{x, y, x, y};
  const Dataset d = load_npy(p, false, 0, 1).train;
  ASSERT_EQ(d.size(), 3);
  ASSERT_EQ(d.features(), 2);
  EXPECT_EQ(d.classes, 3);
  EXPECT_EQ(d.y, (std::vector<int>{0, 2, 1}));
  EXPECT_FLOAT_EQ(d.x(1, 0), 2.0f);
  EXPECT_FLOAT_EQ(d.x(0, 2), 5.0f);
  // The same array in Fortran order, big-endian doubles, gzip'd: the same matrix.
  const std::string xf =
      write_gz("xf.npy.gz", npy(">f8", "3, 2", bytes<double>({1, 3, 5, 2, 4, 6}, true), /*fortran=*/true));
  EXPECT_EQ(load_npy({xf, y, xf, y}, false, 0, 1).train.x, d.x);
  const std::string xu = write("xu.npy", npy("|u1", "3, 2", std::string("\x01\x02\x03\x04\x05\x06", 6)));
  EXPECT_EQ(load_npy({xu, y, xu, y}, false, 0, 1).train.x, d.x);

  EXPECT_NE(error_of([&] { read_npy(write("bad.npy", "not numpy")); }).find("no magic"), std::string::npos);
  EXPECT_NE(error_of([&] {
              read_npy(write("short.npy", npy("<f4", "3, 2", bytes<float>({1, 2, 3}))));
            }).find("the data ends early"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              read_npy(write("c.npy", npy("<c8", "1,", bytes<float>({1, 2}))));
            }).find("element type"),
            std::string::npos);
  const std::string ybad = write("ybad.npy", npy("<f4", "3,", bytes<float>({0, 1.5f, 1})));
  EXPECT_NE(error_of([&] { load_npy({x, ybad, x, ybad}, false, 0, 1); }).find("row 1: label 1.5"), std::string::npos);
  const std::string y2 = write("y2.npy", npy("<i8", "2,", bytes<std::int64_t>({0, 1})));
  EXPECT_NE(error_of([&] {
              load_npy({x, y2, x, y2}, false, 0, 1);
            }).find("2 labels for the 3 rows"),
            std::string::npos);
  const std::string xnan = write("xnan.npy", npy("<f4", "3, 2", bytes<float>({1, 2, NAN, 4, 5, 6})));
  EXPECT_NE(error_of([&] {
              load_npy({xnan, y, xnan, y}, false, 0, 1);
            }).find("row 1, feature 0: not a finite"),
            std::string::npos);
}

// A scenario names a CSV file as its dataset: the loader reads its options,
// the job trains on it, and a bad option names its JSON path.
TEST_F(Files, AScenarioTrainsOnACsvFile) {
  std::string text = "f0,f1,f2,label\n";
  std::mt19937_64 rng(5);
  std::normal_distribution<float> noise(0, 0.7f);
  for (int i = 0; i < 1200; ++i) {
    const int c = i % 3;
    text += std::to_string(2 * c + noise(rng)) + "," + std::to_string(-2 * c + noise(rng)) + "," +
            std::to_string(noise(rng)) + "," + std::string(1, char('a' + c)) + "\n";
  }
  const std::string p = write("blobs.csv.gz", "");
  write_gz("blobs.csv.gz", text);
  const std::string ds =
      "dataset={\"kind\":\"csv\",\"train\":\"" + p + "\",\"label\":\"label\",\"test_fraction\":0.25}";
  const std::vector<std::string> sets = {ds,
                                         "model={\"kind\":\"softmax\"}",
                                         "network.model=flow",
                                         "partition={\"kind\":\"iid\"}",
                                         "stop.rounds=60",
                                         "stop.target_accuracy=0.99",
                                         "eval.every_rounds=20"};
  const std::string scenario = testing::source_path("scenarios/regress/flat-synthetic.json");
  const Scenario sc = load_scenario(scenario, sets);
  EXPECT_EQ(sc.dataset.train_file, p);
  const RunResult r = sim::run_simulation(sc, sim::SimOptions{});
  ASSERT_FALSE(r.timeline.empty());
  EXPECT_GT(r.timeline.back().metrics[0], 0.85) << "three well-separated blobs";

  std::vector<std::string> bad = sets;
  bad[0] = "dataset={\"kind\":\"csv\",\"train\":\"" + p + "\",\"label\":\"label\",\"missing\":\"guess\"}";
  EXPECT_NE(error_of([&] { load_scenario(scenario, bad); }).find("/dataset/missing"), std::string::npos);
  bad[0] = "dataset={\"kind\":\"csv\",\"train\":\"" + p + "\",\"label\":\"nonesuch\"}";
  const std::string e = error_of([&] { sim::run_simulation(load_scenario(scenario, bad), sim::SimOptions{}); });
  EXPECT_NE(e.find("/dataset"), std::string::npos) << e;
  EXPECT_NE(e.find("label 'nonesuch' is not a column"), std::string::npos) << e;
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// Three data centres, each training on its own CSV file: the rows split by a
// region column, so their distributions differ.
class PerDc : public Files {
 protected:
  // One DC's rows: three classes, a DC-specific shift of the features.
  std::string rows(int dc, int n, std::uint64_t seed, bool extra_column = false) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<float> noise(0, 0.6f);
    std::string t = extra_column ? "f0,f1,f2,label\n" : "f0,f1,label\n";
    for (int i = 0; i < n; ++i) {
      const int c = (i + dc) % 3 == 0 ? 2 : (i % (dc + 2) == 0 ? 1 : 0);  // class mix differs by DC
      t += std::to_string(2.0f * c + 0.3f * dc + noise(rng)) + "," + std::to_string(-2.0f * c + noise(rng)) +
           (extra_column ? ",0" : "") + "," + std::to_string(c) + "\n";
    }
    return t;
  }
  std::string topology() {
    return write("t3.json",
                 R"({"name": "t3", "lan": {"bandwidth_mbps": 10000, "latency_ms": 0.05},
                     "dcs": [{"name": "central", "workers": 0}, {"name": "dc-a", "workers": 2, "worker_gflops": 5},
                             {"name": "dc-b", "workers": 1, "worker_gflops": 5}, {"name": "dc-c", "workers": 2, "worker_gflops": 5}],
                     "global_server_dc": "central", "wan": {"default": {"bandwidth_mbps": 100, "latency_ms": 20}}})");
  }
  std::vector<std::string> sets(const std::string& per_dc) {
    return {
        "topology=\"" + topology() + "\"", "dataset={\"kind\":\"csv\",\"label\":\"label\",\"per_dc\":" + per_dc + "}",
        "model={\"kind\":\"softmax\"}",    "network.model=flow",
        "partition={\"kind\":\"iid\"}",    "stop.rounds=60",
        "stop.target_accuracy=0.99",       "eval.every_rounds=20"};
  }
  std::string files(int dcs, bool mismatched = false) {
    const char* names[] = {"dc-a", "dc-b", "dc-c"};
    std::string j = "{";
    for (int d = 0; d < dcs; ++d) {
      const std::string tr =
          write(std::string(names[d]) + "-train.csv", rows(d, 300 + 100 * d, 10 + d, mismatched && d == 2));
      const std::string te =
          write(std::string(names[d]) + "-test.csv", rows(d, 100 + 50 * d, 20 + d, mismatched && d == 2));
      j += std::string(d ? "," : "") + "\"" + names[d] + "\":{\"train\":\"" + tr + "\",\"test\":\"" + te + "\"}";
    }
    return j + "}";
  }
  const std::string scenario_ = testing::source_path("scenarios/regress/flat-synthetic.json");
};

TEST_F(PerDc, EachDataCentreTrainsOnItsOwnFileAndIsEvaluatedOnItsOwnTestRows) {
  const Scenario sc = load_scenario(scenario_, sets(files(3)));
  ASSERT_EQ(sc.dataset.per_dc.size(), 3u);
  const TrainingJob job(sc);
  // The joined training set is dc-a's 300 rows, dc-b's 400, dc-c's 500, in that order; every
  // worker's shard lies inside its own DC's rows.
  ASSERT_EQ(job.data().train.size(), 1200);
  ASSERT_EQ(job.shards().size(), 5u);
  const std::vector<std::pair<int, int>> range = {{0, 300}, {0, 300}, {300, 700}, {700, 1200}, {700, 1200}};
  std::size_t rows = 0;
  for (std::size_t w = 0; w < 5; ++w) {
    for (int k : job.shards()[w]) {
      EXPECT_GE(k, range[w].first) << "worker " << w;
      EXPECT_LT(k, range[w].second) << "worker " << w;
    }
    rows += job.shards()[w].size();
  }
  EXPECT_EQ(rows, 1200u) << "every DC's rows among its own workers, each once";
  EXPECT_EQ(job.data_dcs(), (std::vector<std::string>{"dc-a", "dc-b", "dc-c"}));

  const RunResult r = sim::run_simulation(sc, sim::SimOptions{});
  const nlohmann::json s = summary_json(r);
  ASSERT_TRUE(s.contains("per_dc_metrics")) << s.dump();
  // The job-wide value is every DC's, weighted by its test rows (100, 150, 200).
  const auto acc = [&](const char* dc) { return s["per_dc_metrics"][dc]["test_accuracy"].get<double>(); };
  const double weighted = (100 * acc("dc-a") + 150 * acc("dc-b") + 200 * acc("dc-c")) / 450;
  EXPECT_NEAR(r.timeline.back().metrics[0], weighted, 1e-9);
  EXPECT_GT(acc("dc-a"), 0.8);
  EXPECT_GT(acc("dc-c"), 0.8);
  // Every evaluation gives each DC's own metrics too: timeline.csv's last columns.
  for (const TimelineRow& row : r.timeline) {
    ASSERT_EQ(row.dc_metrics.size(), 3u);
    EXPECT_NEAR(row.metrics[0],
                (100 * row.dc_metrics[0][0] + 150 * row.dc_metrics[1][0] + 200 * row.dc_metrics[2][0]) / 450, 1e-9);
  }
  write_run_outputs((dir_ / "run").string(), r);
  std::ifstream csv(dir_ / "run" / "timeline.csv");
  std::string header;
  std::getline(csv, header);
  EXPECT_NE(header.find(",dc-a:test_accuracy,dc-a:test_loss,dc-b:test_accuracy"), std::string::npos) << header;
}

TEST_F(PerDc, DataCentresThatDisagreeOrAreMissingAreRefused) {
  const auto err = [&](const std::vector<std::string>& s) {
    return error_of([&] { sim::run_simulation(load_scenario(scenario_, s), sim::SimOptions{}); });
  };
  std::string e = err(sets(files(2)));
  EXPECT_NE(e.find("data centre dc-c has workers but no files"), std::string::npos) << e;
  e = err(sets(files(3, /*mismatched=*/true)));
  EXPECT_NE(e.find("the data centres disagree: dc-a holds labelled data of 2 features, dc-c labelled data of 3"),
            std::string::npos)
      << e;
  e = err(sets("{\"dc-z\":{\"train\":\"x.csv\"}}"));
  EXPECT_NE(e.find("/dataset/per_dc/dc-z: not a data centre of the topology (central, dc-a, dc-b, dc-c)"),
            std::string::npos)
      << e;
  const std::string cats = write("cats.csv", "f0,label\n1,cat\n2,dog\n");
  e = err(sets("{\"dc-a\":{\"train\":\"" + cats + "\",\"test\":\"" + cats + "\"}}"));
  EXPECT_NE(e.find("list them in dataset.classes"), std::string::npos) << e;
  std::vector<std::string> with_top = sets(files(3));
  with_top[1] = "dataset={\"kind\":\"csv\",\"label\":\"label\",\"train\":\"" + cats + "\",\"per_dc\":" + files(3) + "}";
  e = err(with_top);
  EXPECT_NE(e.find("/dataset/train: with per_dc"), std::string::npos) << e;
}

// The same three DCs as a scenario file: geotrain data shows what each holds,
// and launch refuses what it cannot yet keep apart.
TEST_F(PerDc, GeotrainDataShowsWhatEachDataCentreHoldsAndLaunchRefusesPerDcFiles) {
  const std::string topo = topology();
  const std::string f = write("per-dc.json", R"({"name": "per-dc", "topology": ")" + topo + R"(", "seed": 1,
      "model": {"kind": "softmax"}, "partition": {"kind": "iid"}, "architecture": "hips", "policy": {"kind": "bsp"},
      "optimizer": {"kind": "momentum", "lr": 0.05}, "batch_size": 32, "stop": {"rounds": 20},
      "eval": {"every_rounds": 10}, "network": {"model": "flow"},
      "dataset": {"kind": "csv", "label": "label", "per_dc": )" +
                                                 files(3) + "}}");
  const testing::CommandResult d = testing::run_geotrain("data " + f);
  EXPECT_EQ(d.exit_code, 0) << d.output;
  EXPECT_NE(d.output.find("train  1,200 rows"), std::string::npos) << d.output;
  EXPECT_NE(d.output.find("dc-a         300 rows, test 100 rows; 3 classes:"), std::string::npos) << d.output;
  EXPECT_NE(d.output.find("dc-c         500 rows, test 200 rows"), std::string::npos) << d.output;
  const testing::CommandResult l = testing::run_geotrain("launch " + f + " --out " + (dir_ / "l").string());
  EXPECT_EQ(l.exit_code, 2) << l.output;
  EXPECT_NE(l.output.find("/dataset/per_dc: each data centre's own files (per_dc) are read in simulation only"),
            std::string::npos)
      << l.output;
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

// The generated ranking data written as a LETOR-style SVMlight file (qid:,
// every feature, 1-based) trains exactly as the generated form: the same
// queries, the same partition, NDCG@10 and every other output bit for bit.
TEST_F(Files, ALetorFileWithQidsTrainsExactlyAsTheSameRankingDataGenerated) {
  const std::string scenario = testing::source_path("scenarios/algo-ranknet.json");
  const std::vector<std::string> base = {"network.model=flow", "stop.rounds=40", "eval.every_rounds=20",
                                         R"(dataset={"kind":"ranking","train_queries":200,"test_queries":60})"};
  const Scenario generated = load_scenario(scenario, base);
  const TrainingJob job(generated);
  const auto letor = [&](const Dataset& d, const std::string& name) {
    std::string t = "# generated ranking data as LETOR\n";
    char buf[32];
    for (int q = 0; q + 1 < int(d.query_start.size()); ++q)
      for (int c = d.query_start[std::size_t(q)]; c < d.query_start[std::size_t(q) + 1]; ++c) {
        std::snprintf(buf, sizeof buf, "%.9g", d.target[std::size_t(c)]);
        t += std::string(buf) + " qid:" + std::to_string(q + 1);
        for (Eigen::Index f = 0; f < d.x.rows(); ++f) {
          std::snprintf(buf, sizeof buf, " %d:%.9g", int(f) + 1, d.x(f, c));
          t += buf;
        }
        t += " # doc " + std::to_string(c) + "\n";
      }
    return write_gz(name, t);
  };
  const std::string train = letor(job.data().train, "train.letor.gz"), test = letor(job.data().test, "test.letor.gz");
  std::vector<std::string> from_file = base;
  from_file.back() = R"(dataset={"kind":"svmlight","task":"ranking","features":)" +
                     std::to_string(job.data().train.features()) + R"(,"train":")" + train + R"(","test":")" + test +
                     R"("})";
  const Scenario read = load_scenario(scenario, from_file);
  const TrainingJob read_job(read);
  ASSERT_EQ(read_job.data().train.query_start, job.data().train.query_start);
  ASSERT_EQ(read_job.data().train.x, job.data().train.x);
  ASSERT_EQ(read_job.data().test.target, job.data().test.target);
  const RunResult a = sim::run_simulation(generated, sim::SimOptions{}),
                  b = sim::run_simulation(read, sim::SimOptions{});
  ASSERT_FALSE(a.timeline.empty());
  EXPECT_EQ(a.metrics[0].name, "test_ndcg10");
  for (std::size_t i = 0; i < a.timeline.size(); ++i) EXPECT_EQ(a.timeline[i].metrics, b.timeline[i].metrics) << i;
  EXPECT_GT(a.timeline.back().metrics[0], 0.5);
}

}  // namespace
}  // namespace geotrain
