// What the command line takes from the environment (core/ reads none: the run's
// settings carry it).
#pragma once

namespace geotrain {

// GEOTRAIN_MEMORY_LIMIT_MB in megabytes, 0 when unset (then a run may use 80% of
// the memory available). Throws ConfigError when it is set to anything but a
// positive number: never read as "no limit".
double memory_limit_mb_from_environment();

}  // namespace geotrain
