#include "real/process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

extern char** environ;

namespace geotrain::real {

std::string self_exe() { return std::filesystem::read_symlink("/proc/self/exe").string(); }

pid_t spawn_process(const std::string& exe, const std::vector<std::string>& args, const std::string& log) {
  std::vector<char*> argv;
  argv.push_back(const_cast<char*>(exe.c_str()));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  // The child must not inherit our sockets (relays, links): a connection
  // duplicated into another process does not close when we close it.
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  if (!log.empty()) {
    posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  }
  pid_t pid;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + exe + ": " + std::strerror(rc));
  return pid;
}

int run_process(const std::string& exe, const std::vector<std::string>& args, const std::string& log) {
  const pid_t pid = spawn_process(exe, args, log);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace geotrain::real
