#include "cli/environment.h"

#include <cstdlib>
#include <string>

#include "api/scenarios.h"

namespace geotrain {

double memory_limit_mb_from_environment() {
  const char* v = std::getenv("GEOTRAIN_MEMORY_LIMIT_MB");
  if (!v) return 0;
  char* end = nullptr;
  const double mb = std::strtod(v, &end);
  if (end == v || *end != 0 || !(mb > 0) || mb > 1e12)
    throw ConfigError("GEOTRAIN_MEMORY_LIMIT_MB", "",
                      std::string("expected a positive number of megabytes, got \"") + v + "\"");
  return mb;
}

}  // namespace geotrain
