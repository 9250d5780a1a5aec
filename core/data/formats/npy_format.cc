#include "core/data/formats/npy_format.h"

#include <zlib.h>

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string_view>

#include "core/data/formats/holdout.h"

namespace geotrain {
namespace {

struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};

void read_exact(gzFile f, void* out, std::size_t n, const std::string& path, const char* what) {
  auto* p = static_cast<unsigned char*>(out);
  while (n > 0) {
    const unsigned want = unsigned(std::min<std::size_t>(n, std::size_t(1) << 30));
    const int got = gzread(f, p, want);
    if (got <= 0) {
      int err = 0;
      const char* msg = gzerror(f, &err);
      throw std::runtime_error(path + ": " + what + " ends early" + (got < 0 ? std::string(" (") + msg + ")" : ""));
    }
    p += got;
    n -= std::size_t(got);
  }
}

template <class T>
T load_as(const unsigned char* p, bool swap) {
  unsigned char b[sizeof(T)];
  std::memcpy(b, p, sizeof(T));
  if (swap) std::reverse(b, b + sizeof(T));
  T v;
  std::memcpy(&v, b, sizeof(T));
  return v;
}

}  // namespace

NpyArray read_npy(const std::string& path) {
  std::unique_ptr<gzFile_s, GzCloser> f(gzopen(path.c_str(), "rb"));
  if (!f) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  unsigned char magic[8];
  read_exact(f.get(), magic, 8, path, "the header");
  if (std::memcmp(magic, "\x93NUMPY", 6) != 0) throw std::runtime_error(path + ": not a NumPy .npy file (no magic)");
  const int major = magic[6];
  std::size_t header_len = 0;
  if (major == 1) {
    unsigned char l[2];
    read_exact(f.get(), l, 2, path, "the header");
    header_len = std::size_t(l[0]) | std::size_t(l[1]) << 8;
  } else if (major == 2 || major == 3) {
    unsigned char l[4];
    read_exact(f.get(), l, 4, path, "the header");
    header_len = std::size_t(l[0]) | std::size_t(l[1]) << 8 | std::size_t(l[2]) << 16 | std::size_t(l[3]) << 24;
  } else {
    throw std::runtime_error(path + ": .npy format version " + std::to_string(major) + " (1 to 3 are read)");
  }
  if (header_len > 65535)  // NumPy's own headers are a few hundred bytes
    throw std::runtime_error(path + ": a header of " + std::to_string(header_len) + " bytes");
  std::string header(header_len, '\0');
  read_exact(f.get(), header.data(), header_len, path, "the header");
  // The header is a Python dict literal; the three keys are read by hand (no
  // regex: libstdc++'s recurses per character and a hostile header could
  // exhaust the stack).
  const auto after_key = [&](const char* key) -> std::size_t {
    const std::size_t k = header.find(key);
    if (k == std::string::npos) return std::string::npos;
    std::size_t i = header.find(':', k);
    if (i == std::string::npos) return i;
    ++i;
    while (i < header.size() && header[i] == ' ') ++i;
    return i;
  };
  const std::size_t d = after_key("'descr'");
  if (d == std::string::npos || d + 3 >= header.size() || header[d] != '\'')
    throw std::runtime_error(path + ": header: no 'descr' (element type) of the form '<f4'");
  const char order = header[d + 1];
  if (std::string_view("<>|=").find(order) == std::string_view::npos)
    throw std::runtime_error(path + ": header: 'descr' does not start with a byte order (<, >, | or =)");
  const char type = header[d + 2];
  std::size_t e = d + 3;
  int size = 0;
  while (e < header.size() && std::isdigit(static_cast<unsigned char>(header[e])) && size < 100)
    size = size * 10 + (header[e++] - '0');
  const bool swap = order == '>';
  const std::size_t fo = after_key("'fortran_order'");
  const bool fortran = fo != std::string::npos && header.compare(fo, 4, "True") == 0;
  const std::size_t sh = after_key("'shape'");
  if (sh == std::string::npos || header[sh] != '(') throw std::runtime_error(path + ": header: no 'shape'");
  const std::size_t close = header.find(')', sh);
  if (close == std::string::npos) throw std::runtime_error(path + ": header: 'shape' is not closed");
  NpyArray a;
  double count = 1;
  for (std::size_t i = sh + 1; i < close;) {
    if (!std::isdigit(static_cast<unsigned char>(header[i]))) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < close && std::isdigit(static_cast<unsigned char>(header[j]))) ++j;
    if (j - i > 12) throw std::runtime_error(path + ": header: a dimension of more than 12 digits");
    a.shape.push_back(std::atoll(header.substr(i, j - i).c_str()));
    count *= double(a.shape.back());
    i = j;
  }
  if (a.shape.empty()) throw std::runtime_error(path + ": a scalar, not an array of rows");
  if (count > 5e8)
    throw std::runtime_error(path + ": " + std::to_string(std::llround(count / 1e6)) +
                             "M elements: more than the 500M (2 GB as float32) geotrain holds");
  const bool known = (type == 'b' && size == 1) ||
                     ((type == 'i' || type == 'u') && (size == 1 || size == 2 || size == 4 || size == 8)) ||
                     (type == 'f' && (size == 4 || size == 8));
  if (!known)
    throw std::runtime_error(path + ": element type " + std::string(1, type) + std::to_string(size) +
                             " (bool, int8-64, uint8-64, float32 and float64 are read)");
  const std::size_t n = std::size_t(count);
  // Grown as the data arrives, not sized from the header: a header that
  // promises more than the file holds costs nothing before it is found out.
  a.values.reserve(std::min<std::size_t>(n, std::size_t(1) << 20));
  std::vector<unsigned char> chunk;
  const std::size_t per = std::size_t(1) << 18;
  for (std::size_t done = 0; done < n; done += per) {
    const std::size_t k = std::min(per, n - done);
    chunk.resize(k * std::size_t(size));
    read_exact(f.get(), chunk.data(), chunk.size(), path, "the data");
    for (std::size_t i = 0; i < k; ++i) {
      const unsigned char* p = chunk.data() + i * std::size_t(size);
      float v = 0;
      switch (type) {
        case 'b': v = *p ? 1.0f : 0.0f; break;
        case 'i':
          v = size == 1   ? float(load_as<std::int8_t>(p, swap))
              : size == 2 ? float(load_as<std::int16_t>(p, swap))
              : size == 4 ? float(load_as<std::int32_t>(p, swap))
                          : float(load_as<std::int64_t>(p, swap));
          break;
        case 'u':
          v = size == 1   ? float(*p)
              : size == 2 ? float(load_as<std::uint16_t>(p, swap))
              : size == 4 ? float(load_as<std::uint32_t>(p, swap))
                          : float(load_as<std::uint64_t>(p, swap));
          break;
        default: v = size == 4 ? load_as<float>(p, swap) : float(load_as<double>(p, swap)); break;
      }
      a.values.push_back(v);
    }
  }
  if (fortran && a.shape.size() > 1) {  // to C order
    std::vector<float> c(n);
    std::vector<std::int64_t> stride(a.shape.size());  // C-order strides
    std::int64_t s = 1;
    for (std::size_t d = a.shape.size(); d-- > 0;) stride[d] = s, s *= a.shape[d];
    std::vector<std::int64_t> idx(a.shape.size(), 0);
    for (std::size_t i = 0; i < n; ++i) {  // i walks Fortran order: the first index fastest
      std::int64_t at = 0;
      for (std::size_t d = 0; d < idx.size(); ++d) at += idx[d] * stride[d];
      c[std::size_t(at)] = a.values[i];
      for (std::size_t d = 0; d < idx.size(); ++d) {
        if (++idx[d] < a.shape[d]) break;
        idx[d] = 0;
      }
    }
    a.values.swap(c);
  }
  unsigned char extra;
  if (gzread(f.get(), &extra, 1) > 0) throw std::runtime_error(path + ": bytes after the array's data");
  return a;
}

namespace {

Dataset dataset_of(const NpyArray& x, const NpyArray& y, bool regression, const std::string& xp, const std::string& yp,
                   int classes) {
  const std::int64_t rows = x.shape[0];
  if (y.shape.size() != 1 && !(y.shape.size() == 2 && y.shape[1] == 1))
    throw std::runtime_error(yp + ": expected a shape of (rows,), got " + std::to_string(y.shape.size()) +
                             " dimensions");
  if (y.shape[0] != rows)
    throw std::runtime_error(yp + ": " + std::to_string(y.shape[0]) + " labels for the " + std::to_string(rows) +
                             " rows of " + xp);
  if (rows < 1) throw std::runtime_error(xp + ": no rows");
  const std::int64_t features = std::int64_t(x.values.size()) / rows;
  Dataset d;
  d.name = xp;
  d.x = Eigen::Map<const Eigen::MatrixXf>(x.values.data(), Eigen::Index(features), Eigen::Index(rows));
  for (std::size_t i = 0; i < x.values.size(); ++i)
    if (!std::isfinite(x.values[i]))
      throw std::runtime_error(xp + ": row " + std::to_string(i / std::size_t(features)) + ", feature " +
                               std::to_string(i % std::size_t(features)) + ": not a finite number");
  if (regression) {
    d.kind = "regression";
    d.target = y.values;
    for (std::size_t i = 0; i < y.values.size(); ++i)
      if (!std::isfinite(y.values[i])) throw std::runtime_error(yp + ": row " + std::to_string(i) + ": not finite");
    return d;
  }
  d.kind = "labelled";
  d.classes = classes;
  for (std::size_t i = 0; i < y.values.size(); ++i) {
    const float v = y.values[i];
    if (!(v >= 0) || v != std::floor(v) || (classes > 0 && v >= float(classes)))
      throw std::runtime_error(yp + ": row " + std::to_string(i) + ": label " + std::to_string(v) +
                               (classes > 0
                                    ? " is not a class 0 to " + std::to_string(classes - 1) + " of the training labels"
                                    : " is not a whole number 0..k-1 (a regression target? dataset.task)"));
    d.y.push_back(int(v));
    if (classes == 0) d.classes = std::max(d.classes, int(v) + 1);
  }
  if (classes == 0 && d.classes < 2) throw std::runtime_error(yp + ": one class only: nothing to tell apart");
  return d;
}

}  // namespace

TrainTest load_npy(const NpyPaths& p, bool regression, double test_fraction, std::uint64_t seed) {
  TrainTest tt;
  {
    const NpyArray x = read_npy(p.train_x), y = read_npy(p.train_y);
    tt.train = dataset_of(x, y, regression, p.train_x, p.train_y, 0);
  }
  if (p.test_x.empty() != p.test_y.empty())
    throw std::runtime_error("test_x and test_y: give both, or neither (then test_fraction of the training rows)");
  if (p.test_x.empty()) return hold_out(std::move(tt.train), test_fraction, seed);
  const NpyArray x = read_npy(p.test_x), y = read_npy(p.test_y);
  if (x.shape[0] > 0 && std::int64_t(x.values.size()) / x.shape[0] != tt.train.x.rows())
    throw std::runtime_error(p.test_x + ": " + std::to_string(std::int64_t(x.values.size()) / x.shape[0]) +
                             " features per row, the training file has " + std::to_string(tt.train.x.rows()));
  tt.test = dataset_of(x, y, regression, p.test_x, p.test_y, tt.train.classes);
  return tt;
}

}  // namespace geotrain
