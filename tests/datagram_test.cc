// Best-effort datagrams (real/datagram.h): split, signed, reassembled in any
// order, and everything forged, misaddressed or over budget refused.
#include "real/datagram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <random>

#include "core/payload/wire.h"
#include "real/frame.h"

namespace geotrain::real {
namespace {

const std::string kSecret = "datagram-test-secret-0123456789";
using Clock = DatagramAssembler::Clock;

Message big_message(NodeId from, NodeId to, std::size_t floats) {
  Message m;
  m.kind = MsgKind::kPush;
  m.channel = Channel::kBestEffort;
  m.from = from;
  m.to = to;
  m.round = 4;
  auto p = std::make_shared<Payload>();
  ParamBlock b;
  b.key = 3;
  b.values = Eigen::VectorXf::LinSpaced(Eigen::Index(floats), 0, 1);
  p->blocks.push_back(b);
  m.payload = p;
  return m;
}

TEST(Datagram, FragmentsReassembleInAnyOrder) {
  const Message m = big_message(2, 1, 40000);  // 160 KB
  auto d = make_datagrams(2, 9, encode_message(m), kSecret);
  ASSERT_EQ(d.size(), (encode_message(m).size() + kDatagramChunk - 1) / kDatagramChunk);
  std::mt19937 rng(1);
  std::shuffle(d.begin(), d.end(), rng);
  DatagramAssembler a(kSecret, 1);
  std::optional<Message> got;
  for (std::size_t i = 0; i < d.size(); ++i) {
    got = a.add(d[i].data(), d[i].size(), Clock::now());
    EXPECT_EQ(got.has_value(), i + 1 == d.size());
  }
  ASSERT_TRUE(got);
  EXPECT_EQ(encode_message(*got), encode_message(m));
  EXPECT_EQ(a.partial_messages(), 0u);
  EXPECT_EQ(a.partial_bytes(), 0u);
}

TEST(Datagram, ForgedTamperedAndMisaddressedDatagramsAreRefused) {
  const Message m = big_message(2, 1, 10);
  DatagramAssembler other(kSecret, 1);
  auto d = make_datagrams(2, 1, encode_message(m), "another secret, another job");
  EXPECT_THROW(other.add(d[0].data(), d[0].size(), Clock::now()), FrameError);
  d = make_datagrams(2, 1, encode_message(m), kSecret);
  d[0][kFrameHeaderBytes + 20] ^= 1;  // one bit of the payload
  EXPECT_THROW(other.add(d[0].data(), d[0].size(), Clock::now()), FrameError);
  // Signed by a member of the job, but claiming to come from node 5.
  d = make_datagrams(5, 1, encode_message(m), kSecret);
  EXPECT_THROW(other.add(d[0].data(), d[0].size(), Clock::now()), FrameError);
  // Meant for node 3.
  d = make_datagrams(2, 2, encode_message(big_message(2, 3, 10)), kSecret);
  EXPECT_THROW(other.add(d[0].data(), d[0].size(), Clock::now()), FrameError);
  EXPECT_THROW(other.add(d[0].data(), 3, Clock::now()), FrameError);
}

// A datagram captured on the wire passes the HMAC: replayed whole, in any order, it must not be
// delivered twice (a DGT part delivered twice would be added to the model twice).
TEST(Datagram, ReplayedMessagesAreRefusedAndCounted) {
  DatagramAssembler a(kSecret, 1);
  const Message m = big_message(2, 1, 1000);
  std::vector<std::vector<Bytes>> sent;
  for (std::uint64_t id : {100, 101, 103, 102}) sent.push_back(make_datagrams(2, id, encode_message(m), kSecret));
  int delivered = 0;
  for (const auto& msg : sent)
    for (const auto& d : msg) delivered += a.add(d.data(), d.size(), Clock::now()) ? 1 : 0;
  EXPECT_EQ(delivered, 4) << "reordered messages are not replays";
  int refused = 0;
  for (const auto& msg : {sent[0], sent[3]}) {
    for (std::size_t i = 0; i + 1 < msg.size(); ++i) EXPECT_FALSE(a.add(msg[i].data(), msg[i].size(), Clock::now()));
    EXPECT_THROW(a.add(msg.back().data(), msg.back().size(), Clock::now()), FrameError);
    ++refused;
  }
  EXPECT_EQ(a.replays_refused(), std::uint64_t(refused));
  // Another sender's numbers are its own.
  const auto other = make_datagrams(3, 100, encode_message(big_message(3, 1, 1000)), kSecret);
  std::optional<Message> got;
  for (const auto& d : other) got = a.add(d.data(), d.size(), Clock::now());
  EXPECT_TRUE(got.has_value());
}

// A value that is not finite would poison every model it reaches: a payload with one is refused.
TEST(Datagram, NonFiniteValuesAreRefused) {
  Message m = big_message(2, 1, 100);
  auto p = std::make_shared<Payload>(*m.payload);
  m.payload = p;
  for (float bad : {std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity()}) {
    p->blocks[0].values[7] = bad;
    const Bytes e = encode_message(m);
    EXPECT_THROW(decode_message(e.data(), e.size()), WireError);
  }
}

TEST(Datagram, IncompleteMessagesStayWithinTheBudgetAndExpire) {
  constexpr std::size_t kBudget = 10 * kDatagramChunk;
  DatagramAssembler a(kSecret, 1, kBudget);
  const auto t0 = Clock::now();
  for (std::uint64_t id = 0; id < 20; ++id) {  // first fragments only: never complete
    const auto d = make_datagrams(2, id, encode_message(big_message(2, 1, 40000)), kSecret);
    EXPECT_FALSE(a.add(d[0].data(), d[0].size(), t0));
    EXPECT_LE(a.partial_bytes(), kBudget);
  }
  EXPECT_EQ(a.partial_messages(), 10u);
  EXPECT_EQ(a.counters().expired, 10u) << "the oldest made room";
  const auto d = make_datagrams(2, 99, encode_message(big_message(2, 1, 10)), kSecret);
  EXPECT_TRUE(a.add(d[0].data(), d[0].size(), t0 + DatagramAssembler::kPartialLifetime + std::chrono::seconds(1)));
  EXPECT_EQ(a.partial_messages(), 0u) << "expired partial messages are forgotten";
  EXPECT_EQ(a.counters().expired, 20u);
}

}  // namespace
}  // namespace geotrain::real
