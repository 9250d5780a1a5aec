// Running one of the Python scripts under analysis/ (plots and reports need
// matplotlib, which C++ does not have): Debian's python3 even when another
// python3 comes first on PATH; output inherited.
#pragma once
#include <string>
#include <vector>

namespace geotrain::cli {

// Runs analysis/<script> with args; returns its exit status (1 if it died by a signal).
int run_analysis_script(const std::string& script, const std::vector<std::string>& args);

}  // namespace geotrain::cli
