#pragma once
#include <string>

namespace geotrain {

// Creates directory `dir` if needed and proves a file can be written in it, so a
// run finds an unwritable output directory before it starts, not after.
// Throws ConfigError naming `option` (e.g. "--out out/x") and the reason.
void check_writable_dir(const std::string& dir, const std::string& option);

}  // namespace geotrain
