#include "real/process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

extern char** environ;

namespace geotrain::real {

namespace {
constexpr const char* kParentVar = "GEOTRAIN_PARENT_PID";
}  // namespace

void die_with_parent_if_asked() {
  const char* v = std::getenv(kParentVar);
  if (v == nullptr) return;
  const pid_t parent = pid_t(std::atol(v));
  unsetenv(kParentVar);  // our own children get our pid, not our parent's
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  // Ctrl-C reaches a terminal's whole process group: the parent acts on it and
  // ends its children the orderly way (SIGTERM), so they do not act on it alone.
  std::signal(SIGINT, SIG_IGN);
  if (getppid() != parent) _exit(1);  // the parent died before prctl took effect
}

bool signal_ignored(int sig) {
  struct sigaction sa {};
  return sigaction(sig, nullptr, &sa) == 0 && sa.sa_handler == SIG_IGN;
}

bool process_stopped(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(in, line)) return false;
  const auto close = line.rfind(')');  // the command name may hold spaces and parentheses
  return close != std::string::npos && close + 2 < line.size() && (line[close + 2] == 'T' || line[close + 2] == 't');
}

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
  // The environment plus who the parent is (see die_with_parent_if_asked).
  std::vector<std::string> env_strings = {std::string(kParentVar) + "=" + std::to_string(getpid())};
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, kParentVar, std::strlen(kParentVar)) != 0 || (*e)[std::strlen(kParentVar)] != '=')
      env_strings.push_back(*e);
  std::vector<char*> envp;
  for (auto& e : env_strings) envp.push_back(e.data());
  envp.push_back(nullptr);
  pid_t pid;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), envp.data());
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
