#include "core/data/formats/svmlight_format.h"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>

#include "core/data/formats/holdout.h"
#include "core/data/formats/text_lines.h"

namespace geotrain {
namespace {

// A file's rows as compressed sparse rows, before they are made dense.
struct Csr {
  std::vector<std::int64_t> row_start{0};
  std::vector<std::int64_t> index;
  std::vector<float> value;
  std::vector<double> label;
  std::vector<std::int64_t> qid;
  std::int64_t max_index = -1;
  bool has_zero = false;
};

std::string_view token(std::string_view* rest) {
  std::size_t i = 0;
  while (i < rest->size() && ((*rest)[i] == ' ' || (*rest)[i] == '\t')) ++i;
  std::size_t j = i;
  while (j < rest->size() && (*rest)[j] != ' ' && (*rest)[j] != '\t') ++j;
  const std::string_view t = rest->substr(i, j - i);
  rest->remove_prefix(j);
  return t;
}

template <class T>
bool number(std::string_view s, T* v) {
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  const auto r = fast_float::from_chars(s.data(), s.data() + s.size(), *v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(*v);
}

bool integer(std::string_view s, std::int64_t* v) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

Csr read_file(const std::string& path, bool ranking) {
  TextLines in(path);
  Csr m;
  std::string_view line;
  std::map<std::int64_t, std::int64_t> qid_seen_at;  // qid -> the line its group began
  while (in.next(&line)) {
    const std::size_t hash = line.find('#');
    if (hash != std::string_view::npos) line = line.substr(0, hash);
    std::string_view rest = line;
    const std::string_view label = token(&rest);
    if (label.empty()) continue;  // a blank or comment line
    double y = 0;
    if (!number(label, &y)) in.fail("expected a number as the label, got '" + std::string(label.substr(0, 40)) + "'");
    m.label.push_back(y);
    std::int64_t last = -1;
    bool first = true;
    for (std::string_view t = token(&rest); !t.empty(); t = token(&rest), first = false) {
      const std::size_t colon = t.find(':');
      if (colon == std::string_view::npos) in.fail("expected index:value, got '" + std::string(t.substr(0, 40)) + "'");
      const std::string_view key = t.substr(0, colon), val = t.substr(colon + 1);
      if (key == "qid") {
        std::int64_t q = 0;
        if (!first || !integer(val, &q)) in.fail("qid: expected qid:<integer> right after the label");
        if (!m.qid.empty() && m.qid.back() != q) {
          const auto it = qid_seen_at.find(q);
          if (it != qid_seen_at.end())
            in.fail("qid " + std::to_string(q) + " again, after other queries (its rows began at line " +
                    std::to_string(it->second) + "): a query's rows must be contiguous");
        }
        if (m.qid.empty() || m.qid.back() != q) qid_seen_at.emplace(q, in.line_number());
        m.qid.push_back(q);
        continue;
      }
      std::int64_t idx = 0;
      float v = 0;
      if (!integer(key, &idx) || idx < 0)
        in.fail("expected a non-negative feature index, got '" + std::string(key) + "'");
      if (idx <= last)
        in.fail("feature " + std::to_string(idx) + " after " + std::to_string(last) + ": indices must increase");
      if (!number(val, &v))
        in.fail("feature " + std::to_string(idx) + ": expected a finite number, got '" +
                std::string(val.substr(0, 40)) + "'");
      last = idx;
      m.has_zero |= idx == 0;
      m.max_index = std::max(m.max_index, idx);
      m.index.push_back(idx);
      m.value.push_back(v);
    }
    if (ranking && m.qid.size() != m.label.size()) in.fail("no qid: a ranking file gives each row's query (qid:<q>)");
    m.row_start.push_back(std::int64_t(m.index.size()));
  }
  if (m.label.empty()) throw std::runtime_error(path + ": no rows");
  return m;
}

Dataset dense(const SvmlightOptions& o, Csr&& m, int features, bool one_based, const std::vector<double>& classes,
              const std::string& path) {
  const std::int64_t rows = std::int64_t(m.label.size());
  if (double(features) * double(rows) > o.max_dense_values)
    throw std::runtime_error(path + ": " + std::to_string(rows) + " rows x " + std::to_string(features) +
                             " features is " + std::to_string(std::llround(double(features) * rows * 4 / 1e9)) +
                             " GB dense, more than the 2 GB geotrain holds dense (sparse input is not read yet)");
  Dataset d;
  d.name = path;
  d.x = Eigen::MatrixXf::Zero(features, Eigen::Index(rows));
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t k = m.row_start[std::size_t(r)]; k < m.row_start[std::size_t(r) + 1]; ++k) {
      const std::int64_t col = m.index[std::size_t(k)] - (one_based ? 1 : 0);
      if (col >= features)
        throw std::runtime_error(path + ": feature index " + std::to_string(m.index[std::size_t(k)]) + " past the " +
                                 std::to_string(features) + " features (dataset.features)");
      d.x(Eigen::Index(col), Eigen::Index(r)) = m.value[std::size_t(k)];
    }
  switch (o.task) {
    case SvmlightOptions::Task::kClassification:
      d.kind = "labelled";
      d.classes = int(classes.size());
      for (double y : m.label) {
        const auto it = std::lower_bound(classes.begin(), classes.end(), y);
        if (it == classes.end() || *it != y)
          throw std::runtime_error(path + ": label " + std::to_string(y) + " is not one of the training file's");
        d.y.push_back(int(it - classes.begin()));
      }
      break;
    case SvmlightOptions::Task::kRegression:
      d.kind = "regression";
      d.target.assign(m.label.begin(), m.label.end());
      break;
    case SvmlightOptions::Task::kRanking:
      d.kind = "ranking";
      d.target.assign(m.label.begin(), m.label.end());
      for (std::size_t r = 0; r < m.qid.size(); ++r)
        if (r == 0 || m.qid[r] != m.qid[r - 1]) d.query_start.push_back(int(r));
      d.query_start.push_back(int(m.qid.size()));
      break;
  }
  return d;
}

}  // namespace

TrainTest load_svmlight(const SvmlightOptions& o, const std::string& train_path, const std::string& test_path,
                        double test_fraction, std::uint64_t seed) {
  const bool ranking = o.task == SvmlightOptions::Task::kRanking;
  Csr train = read_file(train_path, ranking);
  Csr test;
  if (!test_path.empty()) test = read_file(test_path, ranking);
  const bool has_zero = train.has_zero || test.has_zero;
  bool one_based = o.base == SvmlightOptions::Base::kOne || (o.base == SvmlightOptions::Base::kAuto && !has_zero);
  if (one_based && has_zero)
    throw std::runtime_error((train.has_zero ? train_path : test_path) +
                             ": feature index 0 in a file read as 1-based (dataset.index_base)");
  const int features =
      o.features > 0 ? o.features : int(std::max(train.max_index, test.max_index) + (one_based ? 0 : 1));
  if (features < 1) throw std::runtime_error(train_path + ": no features in any row (and no dataset.features)");
  std::vector<double> classes;
  if (o.task == SvmlightOptions::Task::kClassification && !o.classes.empty()) {
    classes = o.classes;
    std::sort(classes.begin(), classes.end());
  } else if (o.task == SvmlightOptions::Task::kClassification) {
    classes = train.label;
    std::sort(classes.begin(), classes.end());
    classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
    if (classes.size() < 2) throw std::runtime_error(train_path + ": one class only: nothing to tell apart");
    if (classes.size() > 100000)
      throw std::runtime_error(train_path + ": " + std::to_string(classes.size()) +
                               " distinct labels: a regression file? (dataset.task)");
  }
  TrainTest tt;
  tt.train = dense(o, std::move(train), features, one_based, classes, train_path);
  if (!test_path.empty())
    tt.test = dense(o, std::move(test), features, one_based, classes, test_path);
  else
    tt = hold_out(std::move(tt.train), test_fraction, seed);
  return tt;
}

}  // namespace geotrain
