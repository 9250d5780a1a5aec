// write_file_atomically: the whole new content, no temporary left behind,
// and a clear error naming the file.
#include "core/atomic_file.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

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
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
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
