#include "core/payload/params_file.h"

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/base/atomic_file.h"

namespace geotrain {
namespace {
constexpr char kMagic[8] = {'G', 'T', 'P', 'A', 'R', 'A', 'M', '1'};
constexpr std::uint64_t kMaxEntries = std::uint64_t(1) << 32;

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}
}  // namespace

void write_params_file(const std::string& path, const ParamSet& p) {
  std::string out(kMagic, sizeof kMagic);
  put(out, std::uint32_t(p.size()));
  for (const auto& b : p) {
    put(out, b.key);
    put(out, std::uint64_t(b.values.size()));
    out.append(reinterpret_cast<const char*>(b.values.data()), std::size_t(b.values.size()) * sizeof(float));
  }
  write_file_atomically(path, out);
}

ParamSet read_params_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open the parameter file");
  auto fail = [&](const std::string& why) {
    return std::runtime_error(path + ": not a geotrain parameter file (" + why + ")");
  };
  char magic[8];
  std::uint32_t blocks = 0;
  if (!in.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) throw fail("bad magic");
  if (!in.read(reinterpret_cast<char*>(&blocks), 4) || blocks > 1u << 20) throw fail("bad block count");
  ParamSet p;
  for (std::uint32_t i = 0; i < blocks; ++i) {
    std::uint32_t key = 0;
    std::uint64_t n = 0;
    if (!in.read(reinterpret_cast<char*>(&key), 4) || !in.read(reinterpret_cast<char*>(&n), 8) || n > kMaxEntries)
      throw fail("truncated block header");
    ParamBlock b{key, Eigen::VectorXf(Eigen::Index(n))};
    if (!in.read(reinterpret_cast<char*>(b.values.data()), std::streamsize(n * sizeof(float))))
      throw fail("truncated block");
    p.push_back(std::move(b));
  }
  return p;
}

}  // namespace geotrain
