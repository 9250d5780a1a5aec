// Message encoding and framing: round trips, and hostile input rejected cleanly.
#include "core/payload/wire.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <random>

#include "real/auth.h"
#include "real/frame.h"
#include "tests/test_util.h"

namespace geotrain {
namespace {

Message sample() {
  auto p = std::make_shared<Payload>();
  p->blocks = {{3, Eigen::VectorXf::LinSpaced(100, -1, 1)}, {7, Eigen::VectorXf::Constant(5, 2.5f)}};
  p->loss_sum = 1.25;
  p->contributors = 4;
  Message m = make_message(MsgKind::kPullResponse, 2, 5, 42, p);
  m.priority = -3;
  m.channel = Channel::kBestEffort;
  m.step_s = 0.375;
  m.transfer_s = 1.5e-3;
  m.sent_s = 12.625;
  m.origin = 0;
  m.dest = 9;
  return m;
}

TEST(Wire, MessageRoundTrip) {
  const Message m = sample();
  const auto bytes = encode_message(m);
  const Message d = decode_message(bytes.data(), bytes.size());
  EXPECT_EQ(d.kind, m.kind);
  EXPECT_EQ(d.from, 2);
  EXPECT_EQ(d.to, 5);
  EXPECT_EQ(d.round, 42);
  EXPECT_EQ(d.step_s, 0.375);
  EXPECT_EQ(d.transfer_s, 1.5e-3);
  EXPECT_EQ(d.sent_s, 12.625);
  EXPECT_EQ(d.origin, 0);
  EXPECT_EQ(d.dest, 9);
  EXPECT_EQ(origin_of(d), 0);
  EXPECT_EQ(dest_of(d), 9);
  EXPECT_EQ(d.priority, -3);
  EXPECT_EQ(d.channel, Channel::kBestEffort);
  EXPECT_EQ(d.wire_bytes, m.wire_bytes);
  ASSERT_TRUE(d.payload);
  EXPECT_EQ(d.payload->contributors, 4);
  EXPECT_EQ(d.payload->loss_sum, 1.25);
  EXPECT_EQ(max_abs_diff(d.payload->blocks, m.payload->blocks), 0.0f);
  EXPECT_EQ(d.payload->blocks[1].key, 7u);
}

TEST(Wire, MessageWithoutPayloadRoundTrips) {
  const Message m = make_message(MsgKind::kPushAck, 1, 0, 7);
  const auto b = encode_message(m);
  const Message d = decode_message(b.data(), b.size());
  EXPECT_FALSE(d.payload);
  EXPECT_EQ(d.kind, MsgKind::kPushAck);
}

TEST(Wire, EveryTruncationAndRandomCorruptionIsRejectedWithoutCrashing) {
  const auto good = encode_message(sample());
  for (std::size_t n = 0; n < good.size(); n += 7)
    EXPECT_THROW(decode_message(good.data(), n), WireError) << "truncated at " << n;
  std::mt19937 rng(1);
  int rejected = 0;
  for (int i = 0; i < 2000; ++i) {
    auto bad = good;
    constexpr std::uint64_t kHeaders = kMessageHeaderBytes + kPayloadHeaderBytes + kBlockHeaderBytes;
    for (int k = 0; k < 4; ++k)
      bad[rng() % kHeaders] = std::uint8_t(rng());  // header, payload header, first block header
    try {
      decode_message(bad.data(), bad.size());
    } catch (const WireError&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 1000);  // the rest decoded into some well-formed message: fine
}

// The fuzz targets' seeds (tests/fuzz/make_seeds.py) start deep inside the
// decoder only while they are well formed: after a layout change, rerun it.
// Values are checked as their bytes arrive: a bad float is found wherever it
// falls (vector body or tail) and however the stream splits it.
TEST(Wire, NonFiniteValuesAreRefusedWhereverTheyFallAndHoweverTheyArrive) {
  const auto decode_in_chunks = [](const std::vector<std::uint8_t>& bytes, std::size_t chunk) {
    MessageAssembler a(bytes.size());
    for (std::size_t pos = 0; pos < bytes.size();) {
      auto [dst, room] = a.prepare();
      const std::size_t k = std::min({room, chunk, bytes.size() - pos});
      std::memcpy(dst, bytes.data() + pos, k);
      pos += k;
      a.commit(k);
    }
    return a.take();
  };
  const auto push_of = [](Eigen::VectorXf v) {
    auto p = std::make_shared<Payload>();
    p->blocks = {{3, std::move(v)}};
    p->contributors = 1;
    return make_message(MsgKind::kPush, 0, 1, 1, p);
  };
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  for (float bad : {inf, -inf, nan, -nan})
    for (int at : {0, 5, 16, 31, 36})
      for (std::size_t chunk : {1u, 3u, 7u, 4096u}) {
        Eigen::VectorXf v = Eigen::VectorXf::Constant(37, 1.0f);  // 32 values in groups of 16, 5 after
        v[at] = bad;
        EXPECT_THROW(decode_in_chunks(encode_message(push_of(v)), chunk), WireError)
            << bad << " at " << at << ", chunk " << chunk;
      }
  Eigen::VectorXf extreme = Eigen::VectorXf::Constant(37, std::numeric_limits<float>::max());  // finite: passes
  extreme[3] = -std::numeric_limits<float>::max();
  extreme[4] = std::numeric_limits<float>::denorm_min();
  extreme[5] = -0.0f;
  for (std::size_t chunk : {1u, 3u, 4096u})
    EXPECT_EQ(decode_in_chunks(encode_message(push_of(extreme)), chunk).payload->blocks[0].values, extreme);
}

TEST(Wire, TheFuzzSeedsAreWellFormedMessages) {
  int seeds = 0;
  for (const auto& e : std::filesystem::directory_iterator(testing::source_path("tests/fuzz/seeds/wire"))) {
    std::ifstream in(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> b((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_NO_THROW(decode_message(b.data(), b.size())) << e.path();
    ++seeds;
  }
  EXPECT_GE(seeds, 6);
}

TEST(Frame, RoundTripAcrossArbitraryChunking) {
  std::vector<std::uint8_t> stream;
  for (int i = 0; i < 3; ++i) {
    auto f = real::make_frame(real::FrameType::kFragment, std::vector<std::uint8_t>(1000 * (i + 1), std::uint8_t(i)));
    stream.insert(stream.end(), f.begin(), f.end());
  }
  real::FrameDecoder d;
  std::vector<std::size_t> sizes;
  for (std::size_t pos = 0; pos < stream.size(); pos += 333)
    d.feed(stream.data() + pos, std::min<std::size_t>(333, stream.size() - pos),
           [&](real::Frame&& f) { sizes.push_back(f.body.size()); });
  EXPECT_EQ(sizes, (std::vector<std::size_t>{1000, 2000, 3000}));
}

// A frame written in pieces (the checksum computed piece by piece) is byte for
// byte the frame built in one buffer, whatever the piece size and span layout.
TEST(Frame, WrittenInPiecesItIsTheSameFrame) {
  ByteSpans body;
  std::vector<std::uint8_t> flat;
  for (std::size_t len : {5u, 0u, 1000u, 1u, 333u}) {
    body.owned.emplace_back(len);
    for (std::size_t i = 0; i < len; ++i) body.owned.back()[i] = std::uint8_t(i * 31 + len);
    flat.insert(flat.end(), body.owned.back().begin(), body.owned.back().end());
  }
  for (const auto& o : body.owned) body.spans.emplace_back(o.data(), o.size());
  const auto shared = std::make_shared<const ByteSpans>(std::move(body));
  const auto whole = real::make_frame(real::FrameType::kMessage, flat);
  for (std::size_t piece : {1u, 7u, 100u, 1339u, 1u << 20}) {
    real::FrameWriter w(real::FrameType::kMessage, shared, piece);
    std::vector<std::uint8_t> got;
    int pieces = 0;
    for (;;) {
      const auto& spans = w.next();
      if (spans.empty()) break;
      ++pieces;
      std::size_t n = 0;
      for (const auto& [p, k] : spans) {
        got.insert(got.end(), p, p + k);
        n += k;
      }
      EXPECT_LE(n, piece + real::kFrameHeaderBytes + real::kFrameTrailerBytes);
    }
    EXPECT_EQ(got, whole) << "piece " << piece;
    EXPECT_EQ(w.frame_bytes(), whole.size());
    EXPECT_EQ(pieces, int((flat.size() + piece - 1) / piece)) << "piece " << piece;
  }
}

TEST(Frame, BadMagicVersionTypeLengthAndChecksumAreRejected) {
  const auto good = real::make_frame(real::FrameType::kFragment, std::vector<std::uint8_t>(64, 9));
  auto feed = [](std::vector<std::uint8_t> f, std::size_t limit = 1 << 20) {
    real::FrameDecoder d(limit);
    d.feed(f.data(), f.size(), [](real::Frame&&) {});
  };
  EXPECT_NO_THROW(feed(good));
  for (std::size_t byte : {std::size_t(0), std::size_t(4), std::size_t(5), std::size_t(6), std::size_t(20),
                           good.size() - 1}) {  // magic, version, type, reserved, body, trailer
    auto bad = good;
    bad[byte] ^= 0x5a;
    EXPECT_THROW(feed(bad), real::FrameError) << "byte " << byte;
  }
  EXPECT_THROW(feed(good, 32), real::FrameError);  // over the size limit: rejected from the header alone
}

TEST(Auth, ProofsDependOnSecretNonceAndNode) {
  const auto nonce = real::random_bytes(real::kNonceBytes);
  const auto a = real::client_proof("secret-one-abcdefgh", nonce, 3);
  EXPECT_EQ(a, real::client_proof("secret-one-abcdefgh", nonce, 3));
  EXPECT_NE(a, real::client_proof("secret-two-abcdefgh", nonce, 3));
  EXPECT_NE(a, real::client_proof("secret-one-abcdefgh", nonce, 4));
  EXPECT_NE(a, real::client_proof("secret-one-abcdefgh", real::random_bytes(real::kNonceBytes), 3));
  EXPECT_NE(a, real::server_proof("secret-one-abcdefgh", nonce));
}

}  // namespace
}  // namespace geotrain

#include "real/checksum.h"

namespace geotrain {
namespace {

TEST(Checksum, FastCrc32cMatchesTheTableAtEveryLengthAndSplit) {
  std::mt19937 rng(3);
  std::vector<std::uint8_t> d(200000);
  for (auto& b : d) b = std::uint8_t(rng());
  // Known answer: CRC-32C("123456789") = 0xE3069283.
  const std::uint8_t digits[] = {'1', '2', '3', '4', '5', '6', '7', '8', '9'};
  EXPECT_EQ(real::crc32c(0, digits, 9), 0xE3069283u);
  EXPECT_EQ(real::crc32c_portable(0, digits, 9), 0xE3069283u);
  for (std::size_t n : {0u, 1u, 7u, 8u, 9u, 12287u, 12288u, 12289u, 65536u, 199999u}) {
    EXPECT_EQ(real::crc32c(0, d.data(), n), real::crc32c_portable(0, d.data(), n)) << n;
    const std::size_t cut = n / 3;
    EXPECT_EQ(real::crc32c(real::crc32c(0, d.data(), cut), d.data() + cut, n - cut), real::crc32c(0, d.data(), n));
  }
}

}  // namespace
}  // namespace geotrain

namespace geotrain {
namespace {

TEST(Frame, MessageFramesDecodeInPlaceAndRejectLiesAboutLengths) {
  const auto body = encode_message(sample());
  const auto frame = real::make_frame(real::FrameType::kMessage, body);
  std::vector<Message> got;
  real::FrameDecoder d;
  for (std::size_t pos = 0; pos < frame.size(); pos += 97)  // arbitrary chunking
    d.feed(frame.data() + pos, std::min<std::size_t>(97, frame.size() - pos),
           [&](real::Frame&& f) { got.push_back(std::move(f.message)); });
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(max_abs_diff(got[0].payload->blocks, sample().payload->blocks), 0.0f);
  // A frame shorter or longer than the message it carries is rejected.
  for (long delta : {-5L, 3L}) {
    auto b = body;
    b.resize(std::size_t(long(b.size()) + delta), 0);
    const auto f = real::make_frame(real::FrameType::kMessage, b);
    real::FrameDecoder d2;
    EXPECT_THROW(d2.feed(f.data(), f.size(), [](real::Frame&&) {}), real::FrameError) << delta;
  }
}

}  // namespace
}  // namespace geotrain
