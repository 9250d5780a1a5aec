#include "cli/analysis_script.h"

#include <filesystem>

#include "api/platform.h"

namespace geotrain::cli {

int run_analysis_script(const std::string& script, const std::vector<std::string>& args) {
  const bool debian = std::filesystem::exists("/usr/bin/python3");
  std::vector<std::string> argv;
  if (!debian) argv.push_back("python3");  // through /usr/bin/env's PATH search
  argv.push_back(std::string(GEOTRAIN_SOURCE_DIR) + "/analysis/" + script);
  argv.insert(argv.end(), args.begin(), args.end());
  const int rc = real::run_process(debian ? "/usr/bin/python3" : "/usr/bin/env", argv, "");
  return rc < 0 ? 1 : rc;
}

}  // namespace geotrain::cli
