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

#include "core/base/parallel.h"

namespace geotrain {
namespace {

// Decompressed size limits: Fashion-MNIST's training images are 47 MB, so
// these leave room for any MNIST-format set that fits a simulation, and a gzip
// bomb stops at the limit instead of filling the memory.
constexpr std::size_t kMaxImageBytes = std::size_t(1) << 30;
constexpr std::size_t kMaxLabelBytes = std::size_t(64) << 20;

// The decompressed size a gzip file's trailer states (ISIZE: the size modulo
// 2^32, so only a hint), or its own size for a plain file.
std::size_t size_hint(const std::string& path) {
  const auto stored = std::size_t(std::filesystem::file_size(path));
  std::ifstream in(path, std::ios::binary);
  unsigned char head[2] = {0, 0}, tail[4] = {0, 0, 0, 0};
  if (stored < 18 || !in.read(reinterpret_cast<char*>(head), 2) || head[0] != 0x1f || head[1] != 0x8b) return stored;
  in.seekg(std::streamoff(stored - 4));
  if (!in.read(reinterpret_cast<char*>(tail), 4)) return stored;
  return std::size_t(tail[0]) | std::size_t(tail[1]) << 8 | std::size_t(tail[2]) << 16 | std::size_t(tail[3]) << 24;
}

// Whole file, gunzipped when it is gzip (gzread passes plain files through);
// at most `limit` bytes after decompression.
std::vector<unsigned char> read_maybe_gz(const std::string& path, std::size_t limit) {
  if (!std::filesystem::is_regular_file(path)) throw std::runtime_error(path + ": not a regular file");
  // Room for the whole file up front (its stated size): no doubling copies.
  std::vector<unsigned char> out(std::min(limit, size_hint(path)) + 1);
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) throw std::runtime_error(path + ": cannot open");
  const auto too_big = [&] {
    return std::runtime_error(path + ": more than " + std::to_string(limit >> 20) +
                              " MiB when decompressed (the limit for an IDX file)");
  };
  std::size_t size = 0;
  int n;
  for (;;) {
    if (size == out.size()) {  // the hint was short (a file over 4 GiB, or a plain file's)
      if (out.size() > limit) {
        gzclose(f);
        throw too_big();
      }
      out.resize(std::min(limit + 1, out.size() * 2));
    }
    const std::size_t want = std::min<std::size_t>(out.size() - size, 1u << 30);
    n = gzread(f, out.data() + size, unsigned(want));
    if (n <= 0) break;
    size += std::size_t(n);
  }
  bool bad = n < 0;
  gzclose(f);
  if (bad) throw std::runtime_error(path + ": read error (corrupt gzip?)");
  if (size > limit) throw too_big();
  out.resize(size);
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
  // Pixels to floats in pieces of images, on the threads a runtime lends (writing the
  // matrix is most of a load: its first touch of fresh memory).
  constexpr int kPieces = 8;
  run_pieces(kPieces, [&](int k) {
    const std::size_t from = std::size_t(n) * std::size_t(k) / kPieces,
                      to = std::size_t(n) * std::size_t(k + 1) / kPieces;
    const unsigned char* src = img.data() + 16 + from * d;
    float* dst = ds.x.data() + from * d;
    for (std::size_t i = 0; i < (to - from) * d; ++i) dst[i] = src[i] / 255.0f;
  });
  int max_label = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    ds.y[i] = lab[8 + i];
    max_label = std::max(max_label, ds.y[i]);
  }
  ds.classes = max_label + 1;
  return ds;
}

TrainTest decode(const std::string& dir, const std::string& name) {
  TrainTest tt;
  run_pieces(2, [&](int k) { (k == 0 ? tt.train : tt.test) = load_pair(dir, k == 0 ? "train" : "t10k", name); });
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
