// The best-effort channel's datagram discipline (core/runtime/fragments.h), which
// both runtimes use: all fragments or lost, malformed fragments refused and
// counted, partial messages bounded in memory and forgotten after a lifetime.
#include "core/runtime/fragments.h"

#include <gtest/gtest.h>

#include "core/payload/wire.h"

namespace geotrain {
namespace {

FragmentBytes chunk(std::size_t n, std::uint8_t fill) { return FragmentBytes(n, fill); }

TEST(Fragments, CountAndHeaderRoundTrip) {
  EXPECT_EQ(fragment_count(0, 1000), 1);
  EXPECT_EQ(fragment_count(1000, 1000), 1);
  EXPECT_EQ(fragment_count(1001, 1000), 2);
  EXPECT_THROW(fragment_count(std::uint64_t(70000) * 10, 10), std::invalid_argument);
  FragmentBytes b;
  append_fragment_header(b, {7, 0x0102030405060708ull, 3, 9});
  ASSERT_EQ(b.size(), kFragmentHeaderBytes);
  const FragmentHeader h = read_fragment_header(b.data(), b.size());
  EXPECT_EQ(h.from, 7);
  EXPECT_EQ(h.msg, 0x0102030405060708ull);
  EXPECT_EQ(h.index, 3);
  EXPECT_EQ(h.count, 9);
  EXPECT_THROW(read_fragment_header(b.data(), b.size() - 1), WireError);
}

TEST(Fragments, AMessageIsDeliveredOnlyWithEveryFragmentInOrder) {
  Reassembler r;
  EXPECT_FALSE(r.add({1, 5, 2, 3}, 4, chunk(4, 2), 0));
  EXPECT_FALSE(r.add({1, 5, 0, 3}, 4, chunk(4, 0), 1));
  EXPECT_FALSE(r.add({1, 5, 0, 3}, 4, chunk(4, 0), 1)) << "a duplicate completes nothing";
  EXPECT_EQ(r.counters().duplicates, 1u);
  EXPECT_FALSE(r.add({2, 5, 1, 3}, 4, chunk(4, 9), 1)) << "another sender's message 5 is another message";
  const auto parts = r.add({1, 5, 1, 3}, 4, chunk(4, 1), 2);
  ASSERT_TRUE(parts);
  ASSERT_EQ(parts->size(), 3u);
  for (std::uint8_t i = 0; i < 3; ++i) EXPECT_EQ((*parts)[i], chunk(4, i));
  EXPECT_EQ(r.counters().delivered, 1u);
  EXPECT_EQ(r.partial_messages(), 1u);
  EXPECT_EQ(r.partial_bytes(), 4u);
}

TEST(Fragments, MalformedFragmentsAreRefusedAndCounted) {
  Reassembler r(100);
  EXPECT_THROW(r.add({1, 1, 3, 3}, 4, {}, 0), WireError);           // index past the count
  EXPECT_THROW(r.add({1, 1, 0, 0}, 4, {}, 0), WireError);           // no fragments
  EXPECT_THROW(r.add({1, 1, 0, 2}, 5, chunk(4, 0), 0), WireError);  // a length that lies
  EXPECT_THROW(r.add({1, 1, 0, 2}, 101, {}, 0), WireError);         // larger than the budget
  EXPECT_FALSE(r.add({1, 1, 0, 2}, 4, {}, 0));
  EXPECT_THROW(r.add({1, 1, 1, 3}, 4, {}, 0), WireError);  // the count changed
  EXPECT_EQ(r.counters().rejected, 5u);
  EXPECT_EQ(r.partial_messages(), 1u);
  EXPECT_TRUE(r.add({1, 1, 1, 2}, 4, {}, 0)) << "the refused fragments left the message intact";
}

TEST(Fragments, PartialMessagesStayWithinTheBudgetAndExpire) {
  Reassembler r(40, 1000);
  for (std::uint64_t m = 0; m < 20; ++m) {
    EXPECT_FALSE(r.add({1, m, 0, 2}, 10, {}, TimeNs(m)));
    EXPECT_LE(r.partial_bytes(), 40u);
  }
  EXPECT_EQ(r.partial_messages(), 4u);
  EXPECT_EQ(r.counters().expired, 16u) << "the oldest made room";
  EXPECT_TRUE(r.add({1, 19, 1, 2}, 10, {}, 30)) << "the newest survived";
  r.expire(2000);
  EXPECT_EQ(r.partial_messages(), 0u);
  EXPECT_EQ(r.counters().expired, 19u);
  EXPECT_FALSE(r.add({1, 18, 1, 2}, 10, {}, 2001)) << "an expired message's late fragment starts it afresh";
}

}  // namespace
}  // namespace geotrain
