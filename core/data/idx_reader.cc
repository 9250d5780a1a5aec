#include "core/data/idx_reader.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace geotrain {
namespace {

// Decompressed size limits: Fashion-MNIST's training images are 47 MB, so
// these leave room for any MNIST-format set that fits a simulation, and a gzip
// bomb stops at the limit instead of filling the memory.
constexpr std::size_t kMaxImageBytes = std::size_t(1) << 30;
constexpr std::size_t kMaxLabelBytes = std::size_t(64) << 20;

// Whole file, gunzipped when it is gzip (gzread passes plain files through);
// at most `limit` bytes after decompression.
std::vector<unsigned char> read_maybe_gz(const std::string& path, std::size_t limit) {
  if (!std::filesystem::is_regular_file(path)) throw std::runtime_error(path + ": not a regular file");
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) throw std::runtime_error(path + ": cannot open");
  std::vector<unsigned char> out;
  // Room for the file as stored (a plain IDX file's whole size) up front: no doubling copies.
  out.reserve(std::min<std::size_t>(limit, std::filesystem::file_size(path)));
  unsigned char buf[1 << 16];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) {
    if (out.size() + std::size_t(n) > limit) {
      gzclose(f);
      throw std::runtime_error(path + ": more than " + std::to_string(limit >> 20) +
                               " MiB when decompressed (the limit for an IDX file)");
    }
    out.insert(out.end(), buf, buf + n);
  }
  bool bad = n < 0;
  gzclose(f);
  if (bad) throw std::runtime_error(path + ": read error (corrupt gzip?)");
  return out;
}

std::uint32_t be32(const std::vector<unsigned char>& b, std::size_t off) {
  return (std::uint32_t(b[off]) << 24) | (std::uint32_t(b[off + 1]) << 16) | (std::uint32_t(b[off + 2]) << 8) |
         std::uint32_t(b[off + 3]);
}

std::string find(const std::string& dir, const std::string& stem) {
  for (const std::string& p : {dir + "/" + stem + ".gz", dir + "/" + stem}) {
    if (std::ifstream(p).good()) return p;
  }
  throw std::runtime_error(dir + "/" + stem + "(.gz): not found (install dataset-fashion-mnist: scripts/setup.sh)");
}

Dataset load_pair(const std::string& dir, const std::string& prefix, const std::string& name) {
  const std::string ip = find(dir, prefix + "-images-idx3-ubyte");
  const std::string lp = find(dir, prefix + "-labels-idx1-ubyte");
  auto img = read_maybe_gz(ip, kMaxImageBytes);
  auto lab = read_maybe_gz(lp, kMaxLabelBytes);
  if (img.size() < 16 || be32(img, 0) != 0x00000803) throw std::runtime_error(ip + ": not an IDX3 image file");
  if (lab.size() < 8 || be32(lab, 0) != 0x00000801) throw std::runtime_error(lp + ": not an IDX1 label file");
  const std::uint32_t n = be32(img, 4), rows = be32(img, 8), cols = be32(img, 12);
  if (be32(lab, 4) != n) throw std::runtime_error(lp + ": label count differs from " + ip);
  const std::size_t d = std::size_t(rows) * cols;  // each factor < 2^32: no overflow in 64 bits
  if (d == 0 || n == 0) throw std::runtime_error(ip + ": no images");
  if ((img.size() - 16) / d != n || img.size() != 16 + d * n) throw std::runtime_error(ip + ": truncated");
  if (lab.size() != 8 + std::size_t(n)) throw std::runtime_error(lp + ": truncated");
  Dataset ds;
  ds.name = name;
  ds.x.resize(static_cast<Eigen::Index>(d), n);
  ds.y.resize(n);
  int max_label = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < d; ++j) ds.x(static_cast<Eigen::Index>(j), i) = img[16 + i * d + j] / 255.0f;
    ds.y[i] = lab[8 + i];
    max_label = std::max(max_label, ds.y[i]);
  }
  ds.classes = max_label + 1;
  return ds;
}

TrainTest decode(const std::string& dir, const std::string& name) {
  TrainTest tt{load_pair(dir, "train", name), load_pair(dir, "t10k", name)};
  tt.test.classes = tt.train.classes = std::max(tt.train.classes, tt.test.classes);
  return tt;
}

// What identifies a decoded data set: its name and every file's path, size and time.
std::string identity(const std::string& dir, const std::string& name) {
  std::string id = name;
  for (const char* stem :
       {"train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
    const std::string p = find(dir, stem);
    id += "\n" + p + " " + std::to_string(std::filesystem::file_size(p)) + " " +
          std::to_string(std::filesystem::last_write_time(p).time_since_epoch().count());
  }
  return id;
}

struct Kept {
  std::mutex mu;
  bool keep = false;
  std::map<std::string, TrainTest> sets;  // by identity()
};
Kept& kept() {
  static Kept k;
  return k;
}

}  // namespace

void keep_idx_datasets_loaded(bool keep) {
  Kept& k = kept();
  std::lock_guard<std::mutex> lock(k.mu);
  k.keep = keep;
  if (!keep) k.sets.clear();
}

TrainTest load_idx_dataset(const std::string& dir, const std::string& name) {
  Kept& k = kept();
  std::unique_lock<std::mutex> lock(k.mu);
  if (!k.keep) {
    lock.unlock();
    return decode(dir, name);
  }
  // Decoded under the lock: two threads loading the same files decode them once.
  const std::string id = identity(dir, name);
  auto it = k.sets.find(id);
  if (it == k.sets.end()) it = k.sets.emplace(id, decode(dir, name)).first;
  return it->second;
}

}  // namespace geotrain
