#include "core/atomic_file.h"

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace geotrain {

void write_file_atomically(const std::string& path, const std::string& content) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error(tmp + ": cannot open for writing");
    out.write(content.data(), std::streamsize(content.size()));
    out.close();
    if (!out) throw std::runtime_error(tmp + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) throw std::runtime_error(path + ": cannot replace: " + ec.message());
}

}  // namespace geotrain
