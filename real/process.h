// Starting child processes of this binary (launch, sweep).
#pragma once
#include <sys/types.h>

#include <string>
#include <vector>

namespace geotrain::real {

// This executable's path (/proc/self/exe).
std::string self_exe();
// Starts exe with args; stdout and stderr appended to `log` unless it is empty
// (then inherited). No other descriptor is inherited. The child is asked to die
// with this process (die_with_parent_if_asked): a launcher or sweep killed with
// SIGKILL leaves no node or point running. Throws std::runtime_error when the
// process cannot start. Call it from the main thread: Linux signals a child when
// the thread that started it ends.
pid_t spawn_process(const std::string& exe, const std::vector<std::string>& args, const std::string& log);
// Runs exe with args to completion, stdout and stderr appended to `log`; returns its exit status (-1 if signalled).
int run_process(const std::string& exe, const std::vector<std::string>& args, const std::string& log);

// Called first thing in main(): if this process was started by spawn_process,
// it gets SIGTERM when that parent dies (and exits at once if the parent is
// already gone), so it never outlives its launcher or sweep; and it ignores
// SIGINT, which a terminal's Ctrl-C sends its parent too: the parent ends it.
void die_with_parent_if_asked();
// Whether `sig` is ignored in this process (SIG_IGN, as a parent may leave it).
bool signal_ignored(int sig);
// Whether process `pid` is stopped (SIGSTOP, or traced), from /proc.
bool process_stopped(pid_t pid);

}  // namespace geotrain::real
