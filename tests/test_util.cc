#include "tests/test_util.h"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>

namespace geotrain::testing {

std::string geotrain_bin() {
  const char* other = std::getenv("GEOTRAIN_TEST_BIN");
  return other != nullptr && *other != 0 ? other : GEOTRAIN_BIN;
}

CommandResult run_geotrain(const std::string& args) {
  CommandResult r;
  const std::string cmd = geotrain_bin() + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return r;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace geotrain::testing
