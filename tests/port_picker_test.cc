// PortPicker: two launches on one machine never choose the same port, even
// when they draw the same numbers (here: the same seed) before either binds.
#include "real/port_picker.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>

namespace geotrain::real {
namespace {

TEST(PortPicker, TwoProcessesDrawingTheSameNumbersNeverShareAPort) {
  constexpr int kPorts = 50;
  PortPicker mine(42);
  std::set<std::uint16_t> held;
  for (int i = 0; i < kPorts; ++i) held.insert(mine.pick());
  EXPECT_EQ(int(held.size()), kPorts) << "one picker never returns a port twice";
  int to_parent[2];
  ASSERT_EQ(::pipe(to_parent), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // another launch, same seed: its first draws are exactly ours
    ::close(to_parent[0]);
    PortPicker theirs(42);
    for (int i = 0; i < kPorts; ++i) {
      const std::uint16_t p = theirs.pick();
      if (::write(to_parent[1], &p, sizeof p) != sizeof p) ::_exit(2);
    }
    ::_exit(0);
  }
  ::close(to_parent[1]);
  int shared = 0, got = 0;
  std::uint16_t p = 0;
  while (::read(to_parent[0], &p, sizeof p) == sizeof p) ++got, shared += int(held.count(p));
  ::close(to_parent[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  EXPECT_EQ(got, kPorts);
  EXPECT_EQ(shared, 0) << "a port reserved by one launch was handed to another";
}

TEST(PortPicker, APortIsFreeAgainOnceItsPickerIsGone) {
  std::uint16_t first = 0;
  {
    PortPicker a(7);
    first = a.pick();
  }
  PortPicker b(7);  // the same draws: the released port is its first again
  EXPECT_EQ(b.pick(), first);
}

}  // namespace
}  // namespace geotrain::real
