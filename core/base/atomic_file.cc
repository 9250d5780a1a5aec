#include "core/base/atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace geotrain {

void write_file_atomically(const std::string& path, const std::string& content) {
  // The temporary's name is unique per process and call: two shards of a Slurm
  // array writing the same results.csv at once must not rename each other's
  // temporary away (the last rename wins, whole).
  static std::atomic<unsigned> counter{0};
  const std::string tmp = path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp + ": cannot open for writing");
    out.write(content.data(), std::streamsize(content.size()));
    out.close();
    if (!out) throw std::runtime_error(tmp + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw std::runtime_error(path + ": cannot replace: " + ec.message());
  }
}

}  // namespace geotrain
