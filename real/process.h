// Starting child processes of this binary (launch, sweep).
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace geotrain::real {

// This executable's path (/proc/self/exe).
std::string self_exe();
// Starts exe with args; stdout and stderr appended to `log` unless it is empty
// (then inherited). No other descriptor is inherited. Throws std::runtime_error when the process cannot start.
pid_t spawn_process(const std::string& exe, const std::vector<std::string>& args, const std::string& log);
// Runs exe with args to completion, stdout and stderr appended to `log`; returns its exit status (-1 if signalled).
int run_process(const std::string& exe, const std::vector<std::string>& args, const std::string& log);

}  // namespace geotrain::real
