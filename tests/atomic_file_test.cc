// write_file_atomically: the whole new content, no temporary left behind,
// and a clear error naming the file.
#include "core/base/atomic_file.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace geotrain {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(AtomicFile, ReplacesTheWholeFileAndLeavesNoTemporary) {
  const std::string dir = "/tmp/geotrain-atomic-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/summary.json";
  write_file_atomically(path, "old\n");
  std::string binary("a\0b", 3);
  write_file_atomically(path, binary);
  EXPECT_EQ(read_all(path), binary);
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entries += 1, (void)e;
  EXPECT_EQ(entries, 1) << "a temporary was left beside " << path;
  std::filesystem::remove_all(dir);
}

// Two shards of a Slurm array rewrite one results.csv at the same moment: each
// write must land whole, and neither may rename the other's temporary away.
TEST(AtomicFile, ConcurrentWritersFromSeveralProcessesNeverCollide) {
  const std::string dir = "/tmp/geotrain-atomic-race-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/results.csv";
  const std::string a(4096, 'a'), b(8192, 'b');
  std::vector<pid_t> children;
  for (const std::string* content : {&a, &b}) {
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      try {
        for (int i = 0; i < 400; ++i) write_file_atomically(path, *content);
      } catch (...) {
        ::_exit(1);
      }
      ::_exit(0);
    }
    children.push_back(pid);
  }
  for (const pid_t pid : children) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "a writer failed";
  }
  const std::string got = read_all(path);
  EXPECT_TRUE(got == a || got == b) << "a torn file of " << got.size() << " bytes";
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) entries += 1, (void)e;
  EXPECT_EQ(entries, 1) << "temporaries were left behind";
  std::filesystem::remove_all(dir);
}

TEST(AtomicFile, AnUnwritablePlaceIsNamed) {
  const std::string dir = "/tmp/geotrain-atomic-missing-" + std::to_string(::getpid());
  try {
    write_file_atomically(dir + "/x.json", "{}");
    FAIL() << "wrote into a directory that does not exist";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir + "/x.json"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace geotrain
