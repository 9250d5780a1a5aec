#include "core/data/formats/csv_format.h"

#include <fast_float/fast_float.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "core/base/text.h"
#include "core/data/formats/holdout.h"
#include "core/data/formats/text_lines.h"

namespace geotrain {
namespace {

std::string_view trim(std::string_view f) {
  while (!f.empty() && (f.front() == ' ' || f.front() == '\t')) f.remove_prefix(1);
  while (!f.empty() && (f.back() == ' ' || f.back() == '\t')) f.remove_suffix(1);
  return f;
}

bool is_missing(std::string_view f) {
  return f.empty() || f == "NA" || f == "NaN" || f == "nan" || f == "null" || f == "?" || f == "N/A";
}

// One line's fields; quoted ones unescaped into `scratch`, reserved to the
// line's size first so that the views into it stay valid.
void split(std::string_view line, char delim, const TextLines& in, std::vector<std::string_view>* fields,
           std::string* scratch) {
  fields->clear();
  scratch->clear();
  scratch->reserve(line.size());
  std::size_t i = 0;
  for (;;) {
    std::size_t j = i;
    while (j < line.size() && (line[j] == ' ')) ++j;  // spaces before a quote
    if (j < line.size() && line[j] == '"') {
      const std::size_t start = scratch->size();
      std::size_t k = j + 1;
      for (;;) {
        if (k >= line.size())
          in.fail(std::int64_t(fields->size()) + 1,
                  "a quoted field runs past the end of its line (fields spanning lines are not read)");
        if (line[k] == '"') {
          if (k + 1 < line.size() && line[k + 1] == '"') {
            scratch->push_back('"');
            k += 2;
            continue;
          }
          ++k;
          break;
        }
        scratch->push_back(line[k++]);
      }
      while (k < line.size() && line[k] == ' ') ++k;
      if (k < line.size() && line[k] != delim) in.fail(std::int64_t(fields->size()) + 1, "text after a closing quote");
      fields->push_back(std::string_view(scratch->data() + start, scratch->size() - start));
      if (k >= line.size()) return;
      i = k + 1;
      continue;
    }
    const std::size_t end = line.find(delim, i);
    fields->push_back(trim(line.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i)));
    if (end == std::string_view::npos) return;
    i = end + 1;
  }
}

// A number, or NaN for a missing value; anything else fails naming the column.
float parse_number(std::string_view f, const TextLines& in, std::int64_t column, const std::string& name) {
  if (is_missing(f)) return NAN;
  std::string_view s = f;
  if (!s.empty() && s.front() == '+') s.remove_prefix(1);
  float v = 0;
  const auto r = fast_float::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size())
    in.fail(column, name,
            "expected a number, got '" + std::string(f.substr(0, 40)) + "'" +
                " (a text column? name it under categorical)");
  if (!std::isfinite(v)) in.fail(column, name, "'" + std::string(f.substr(0, 40)) + "' is not finite");
  return v;
}

bool parse_index(const std::string& s, int* out) {
  const auto r = std::from_chars(s.data(), s.data() + s.size(), *out);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && *out >= 0;
}

std::uint64_t fnv1a(std::string_view a, std::string_view b) {
  std::uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](std::string_view s) {
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
  };
  mix(a);
  mix("=");
  mix(b);
  return h;
}

enum class Use { kNumeric, kVocabulary, kHashed, kIgnored, kLabel };

// What each column is and where its features go: fixed by the training file.
struct Plan {
  std::vector<std::string> names;
  std::vector<Use> use;
  std::vector<int> offset;  // kNumeric: its feature; kVocabulary: its first
  std::vector<const std::vector<std::string>*> vocabulary;
  int label = -1, hashed_offset = 0, features = 0;
  std::vector<std::string> feature_names;
};

int column_named(const std::vector<std::string>& names, const std::string& spec, const std::string& file,
                 const std::string& what) {
  for (std::size_t c = 0; c < names.size(); ++c)
    if (names[c] == spec) return int(c);
  int index = 0;
  if (parse_index(spec, &index) && index < int(names.size())) return index;
  const std::vector<std::string> shown(names.begin(),
                                       names.begin() + std::ptrdiff_t(std::min<std::size_t>(names.size(), 30)));
  throw std::runtime_error(file + ": " + what + " '" + spec + "' is not a column (columns: " + joined(shown) +
                           (names.size() > 30 ? ", ..." : "") + "; or a 0-based index below " +
                           std::to_string(names.size()) + ")");
}

Plan make_plan(const CsvOptions& o, std::vector<std::string> names, const std::string& file) {
  Plan p;
  p.names = std::move(names);
  const std::size_t n = p.names.size();
  p.use.assign(n, Use::kNumeric);
  p.offset.assign(n, -1);
  p.vocabulary.assign(n, nullptr);
  if (o.label.empty()) throw std::runtime_error(file + ": no label column named (dataset.label)");
  p.label = column_named(p.names, o.label, file, "label");
  p.use[std::size_t(p.label)] = Use::kLabel;
  const auto claim = [&](const std::string& spec, Use u, const char* what) {
    const int c = column_named(p.names, spec, file, what);
    if (p.use[std::size_t(c)] != Use::kNumeric)
      throw std::runtime_error(file + ": column '" + p.names[std::size_t(c)] +
                               "' is named twice (label, ignore, "
                               "categorical)");
    p.use[std::size_t(c)] = u;
    return c;
  };
  for (const auto& s : o.ignore) claim(s, Use::kIgnored, "ignored column");
  for (const auto& [s, values] : o.vocabulary) {
    const int c = claim(s, Use::kVocabulary, "categorical column");
    p.vocabulary[std::size_t(c)] = &values;
  }
  for (const auto& s : o.hashed) claim(s, Use::kHashed, "hashed column");
  for (std::size_t c = 0; c < n; ++c) {
    if (p.use[c] == Use::kNumeric) {
      p.offset[c] = p.features++;
      p.feature_names.push_back(p.names[c]);
    } else if (p.use[c] == Use::kVocabulary) {
      p.offset[c] = p.features;
      p.features += int(p.vocabulary[c]->size());
      for (const auto& v : *p.vocabulary[c]) p.feature_names.push_back(p.names[c] + "=" + v);
    }
  }
  p.hashed_offset = p.features;
  if (!o.hashed.empty()) {
    p.features += o.hash_width;
    for (int b = 0; b < o.hash_width; ++b) p.feature_names.push_back("hash" + std::to_string(b));
  }
  if (p.features == 0) throw std::runtime_error(file + ": no feature columns left after the label and ignored ones");
  return p;
}

// How label values become classes: fixed by the training file (or `classes`).
struct Labels {
  bool integers = true;  // values are their own class
  std::map<std::string, int, std::less<>> index;
  int classes = 0;
};

// Rows' features, kept in chunks so that the final matrix is the one large copy.
struct Rows {
  int features = 0;
  std::vector<std::vector<float>> chunks;
  std::int64_t count = 0;
  std::vector<int> y;
  std::vector<std::string> raw_labels;  // the training file's, until its mapping is known
  std::vector<float> target;
  float* add() {
    const std::size_t per_chunk = std::max<std::size_t>(1, (std::size_t(1) << 20) / std::size_t(features));
    if (chunks.empty() || chunks.back().size() == per_chunk * std::size_t(features)) {
      chunks.emplace_back();
      chunks.back().reserve(per_chunk * std::size_t(features));
    }
    auto& c = chunks.back();
    c.resize(c.size() + std::size_t(features), 0.0f);
    ++count;
    return c.data() + c.size() - std::size_t(features);
  }
  Eigen::MatrixXf take() {
    Eigen::MatrixXf x(features, Eigen::Index(count));
    float* out = x.data();
    for (auto& c : chunks) {
      std::copy(c.begin(), c.end(), out);
      out += c.size();
      std::vector<float>().swap(c);  // freed as it is copied
    }
    chunks.clear();
    return x;
  }
};

void read_file(const CsvOptions& o, const std::string& path, Plan* plan, Rows* rows, const Labels* labels) {
  TextLines in(path);
  std::string_view line;
  std::vector<std::string_view> fields;
  std::string scratch;
  for (int i = 0; i < o.skip_rows; ++i)
    if (!in.next(&line))
      throw std::runtime_error(path + ": fewer lines than skip_rows (" + std::to_string(o.skip_rows) + ")");
  const bool first_file = plan->names.empty();
  std::vector<std::string> names;
  bool have_row = false;
  if (o.header) {
    if (!in.next(&line)) throw std::runtime_error(path + ": empty file (no header)");
    split(line, o.delimiter, in, &fields, &scratch);
    for (auto f : fields) names.emplace_back(f);
  } else {
    if (!in.next(&line)) throw std::runtime_error(path + ": empty file (no rows)");
    split(line, o.delimiter, in, &fields, &scratch);
    for (std::size_t c = 0; c < fields.size(); ++c) names.push_back(std::to_string(c));
    have_row = true;
  }
  if (first_file) {
    *plan = make_plan(o, names, path);
  } else if (names != plan->names) {
    throw std::runtime_error(path + ": its columns differ from the training file's (" + std::to_string(names.size()) +
                             " against " + std::to_string(plan->names.size()) + (o.header ? ", or other names)" : ")"));
  }
  rows->features = plan->features;
  const std::size_t ncols = plan->names.size();
  for (bool more = have_row || in.next(&line); more; more = in.next(&line)) {
    if (!have_row) {
      split(line, o.delimiter, in, &fields, &scratch);
      if (fields.size() == 1 && fields[0].empty()) continue;  // a blank line
    }
    have_row = false;
    if (fields.size() != ncols)
      in.fail("expected " + std::to_string(ncols) + " fields, got " + std::to_string(fields.size()));
    float* x = rows->add();
    for (std::size_t c = 0; c < ncols; ++c) {
      const std::string_view f = fields[c];
      const std::int64_t column = std::int64_t(c) + 1;
      switch (plan->use[c]) {
        case Use::kNumeric: {
          const float v = parse_number(f, in, column, plan->names[c]);
          if (std::isnan(v) && o.missing == CsvOptions::Missing::kError)
            in.fail(column, plan->names[c], "a missing value (set dataset.missing to \"zero\" or \"mean\" to fill it)");
          x[plan->offset[c]] = (std::isnan(v) && o.missing == CsvOptions::Missing::kZero) ? 0.0f : v;
          break;
        }
        case Use::kVocabulary: {
          if (is_missing(f)) break;  // all zeros: no category
          const auto& vocab = *plan->vocabulary[c];
          const auto it = std::find(vocab.begin(), vocab.end(), f);
          if (it == vocab.end())
            in.fail(column, plan->names[c],
                    "'" + std::string(f.substr(0, 40)) + "' is not in its vocabulary (dataset.categorical)");
          x[plan->offset[c] + int(it - vocab.begin())] = 1.0f;
          break;
        }
        case Use::kHashed:
          if (!is_missing(f))
            x[plan->hashed_offset + int(fnv1a(plan->names[c], f) % std::uint64_t(o.hash_width))] += 1.0f;
          break;
        case Use::kIgnored: break;
        case Use::kLabel:
          if (is_missing(f)) in.fail(column, plan->names[c], "a missing label");
          if (o.regression) {
            rows->target.push_back(parse_number(f, in, column, plan->names[c]));
          } else if (!labels) {
            rows->raw_labels.emplace_back(f);
          } else if (labels->integers) {
            int v = -1;
            if (!parse_index(std::string(f), &v) || v >= labels->classes)
              in.fail(column, plan->names[c],
                      "label '" + std::string(f.substr(0, 40)) + "' is not one of the training file's classes 0 to " +
                          std::to_string(labels->classes - 1));
            rows->y.push_back(v);
          } else {
            const auto it = labels->index.find(f);
            if (it == labels->index.end())
              in.fail(column, plan->names[c],
                      "label '" + std::string(f.substr(0, 40)) +
                          "' is not one of the training file's (or dataset.classes)");
            rows->y.push_back(it->second);
          }
          break;
      }
    }
  }
  if (rows->count == 0) throw std::runtime_error(path + ": no rows");
}

Labels labels_of(const CsvOptions& o, Rows* rows, const std::string& path) {
  Labels l;
  if (!o.classes.empty()) {
    l.integers = false;
    for (std::size_t i = 0; i < o.classes.size(); ++i) l.index[o.classes[i]] = int(i);
    l.classes = int(o.classes.size());
  } else {
    int top = -1;
    for (const auto& s : rows->raw_labels) {
      int v = 0;
      if (!parse_index(s, &v) || v > 1'000'000) {
        l.integers = false;
        break;
      }
      top = std::max(top, v);
    }
    if (l.integers) {
      l.classes = top + 1;
    } else if (o.agreed_labels) {
      throw std::runtime_error(path + ": labels that are not whole numbers 0..k-1 (such as '" +
                               rows->raw_labels.front() +
                               "'): list them in dataset.classes, so that every data centre maps them alike");
    } else {
      for (const auto& s : rows->raw_labels) l.index.emplace(s, 0);
      int i = 0;
      for (auto& kv : l.index) kv.second = i++;
      l.classes = i;
    }
  }
  for (const auto& s : rows->raw_labels) {
    int v = 0;
    if (l.integers) {
      parse_index(s, &v);
    } else {
      const auto it = l.index.find(s);
      if (it == l.index.end()) throw std::runtime_error(path + ": label '" + s + "' is not in dataset.classes");
      v = it->second;
    }
    rows->y.push_back(v);
  }
  std::vector<std::string>().swap(rows->raw_labels);
  if (l.classes < 2) throw std::runtime_error(path + ": one class only: nothing to tell apart");
  return l;
}

Dataset dataset_of(const CsvOptions& o, Rows&& rows, const Labels& labels, const std::string& name) {
  Dataset d;
  d.name = name;
  d.x = rows.take();
  if (o.regression) {
    d.kind = "regression";
    d.target = std::move(rows.target);
  } else {
    d.kind = "labelled";
    d.y = std::move(rows.y);
    d.classes = labels.classes;
  }
  return d;
}

// Missing values as their column's training mean; then, if asked, every
// feature standardised by the training statistics.
void fill_and_scale(const CsvOptions& o, TrainTest* tt) {
  const Eigen::Index f = tt->train.x.rows();
  if (o.missing == CsvOptions::Missing::kMean) {
    Eigen::VectorXd sum = Eigen::VectorXd::Zero(f), count = Eigen::VectorXd::Zero(f);
    const auto& x = tt->train.x;
    for (Eigen::Index j = 0; j < x.cols(); ++j)
      for (Eigen::Index i = 0; i < f; ++i)
        if (!std::isnan(x(i, j))) sum(i) += x(i, j), count(i) += 1;
    for (Dataset* d : {&tt->train, &tt->test})
      for (Eigen::Index j = 0; j < d->x.cols(); ++j)
        for (Eigen::Index i = 0; i < f; ++i)
          if (std::isnan(d->x(i, j))) d->x(i, j) = count(i) > 0 ? float(sum(i) / count(i)) : 0.0f;
  }
  if (!o.standardize) return;
  const Eigen::VectorXf mean = tt->train.x.rowwise().mean();
  Eigen::VectorXf sd = ((tt->train.x.colwise() - mean).array().square().rowwise().mean()).sqrt().matrix();
  for (Eigen::Index i = 0; i < f; ++i)
    if (!(sd(i) > 0)) sd(i) = 1.0f;
  for (Dataset* d : {&tt->train, &tt->test}) d->x = (d->x.colwise() - mean).array().colwise() / sd.array();
}

}  // namespace

TrainTest load_csv(const CsvOptions& o, const std::string& train_path, const std::string& test_path,
                   double test_fraction, std::uint64_t seed) {
  if (!o.hashed.empty() && o.hash_width < 1) throw std::invalid_argument("hash_width must be at least 1");
  Plan plan;
  Rows train_rows;
  read_file(o, train_path, &plan, &train_rows, nullptr);
  const Labels labels = o.regression ? Labels{} : labels_of(o, &train_rows, train_path);
  TrainTest tt;
  tt.train = dataset_of(o, std::move(train_rows), labels, train_path);
  if (!test_path.empty()) {
    Rows test_rows;
    Labels test_labels = labels;
    if (o.agreed_labels && labels.integers) test_labels.classes = 1'000'001;  // classes this DC's training lacks
    read_file(o, test_path, &plan, &test_rows, &test_labels);
    Labels seen = labels;
    for (int y : test_rows.y) seen.classes = std::max(seen.classes, y + 1);
    tt.test = dataset_of(o, std::move(test_rows), seen, test_path);
    tt.train.classes = tt.test.classes;
  } else {
    tt = hold_out(std::move(tt.train), test_fraction, seed);
  }
  fill_and_scale(o, &tt);
  return tt;
}

}  // namespace geotrain
