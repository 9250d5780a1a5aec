#include "cli/output_dir.h"

#include <filesystem>
#include <fstream>
#include <system_error>

#include "api/scenarios.h"

namespace geotrain {

void check_writable_dir(const std::string& dir, const std::string& option) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw ConfigError(option, "", "cannot create the output directory: " + ec.message());
  if (!fs::is_directory(dir)) throw ConfigError(option, "", "not a directory");
  const std::string probe = dir + "/.geotrain-write-probe";
  {
    std::ofstream out(probe);
    if (!out || !(out << "ok") || !(out.flush()))
      throw ConfigError(option, "", "cannot write in the output directory (permissions or a full disk)");
  }
  fs::remove(probe, ec);
}

}  // namespace geotrain
