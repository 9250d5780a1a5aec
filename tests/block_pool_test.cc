// Decoded tensors reuse the storage of dropped ones (core/payload/block_pool.h), so a
// real-mode round does not fault every page of its tensors again.
#include "core/payload/block_pool.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include "core/payload/wire.h"

namespace geotrain {
namespace {

constexpr std::size_t kFloats = 16 * 1024 * 1024;  // 64 MiB: glibc would mmap it afresh every time

std::vector<std::uint8_t> tensor_bytes(float value, std::size_t n = kFloats) {
  auto p = std::make_shared<Payload>();
  p->blocks.push_back({0, Eigen::VectorXf::Constant(Eigen::Index(n), value)});
  return encode_message(make_message(MsgKind::kPullResponse, 0, 1, 1, p));
}

long minor_faults() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return u.ru_minflt;
}

TEST(BlockPool, TheNextTensorReusesTheDroppedOnesMappedPages) {
  const auto bytes = tensor_bytes(0.25f);
  const float* first = nullptr;
  {
    const Message m = decode_message(bytes.data(), bytes.size());
    first = m.payload->blocks[0].values.data();
  }  // dropped: its storage goes back to the pool
  const long before = minor_faults();
  const Message again = decode_message(bytes.data(), bytes.size());
  const long faults = minor_faults() - before;
  EXPECT_EQ(again.payload->blocks[0].values.data(), first);
  EXPECT_EQ(again.payload->blocks[0].values[kFloats - 1], 0.25f);
  const long pages = long(kFloats * sizeof(float) / 4096);
  EXPECT_LT(faults, pages / 10) << faults << " page faults decoding a tensor of " << pages << " pages";
}

TEST(BlockPool, ALiveTensorIsNeverHandedOut) {
  const auto a_bytes = tensor_bytes(1.0f), b_bytes = tensor_bytes(2.0f);
  const Message a = decode_message(a_bytes.data(), a_bytes.size());
  const Message b = decode_message(b_bytes.data(), b_bytes.size());
  EXPECT_NE(a.payload->blocks[0].values.data(), b.payload->blocks[0].values.data());
  EXPECT_EQ(a.payload->blocks[0].values.minCoeff(), 1.0f);
  EXPECT_EQ(b.payload->blocks[0].values.maxCoeff(), 2.0f);
}

TEST(BlockPool, KeepsOnlyLargeBuffersUpToTheCapAndMatchesSizesExactly) {
  BlockPool pool;
  pool.give(Eigen::VectorXf(16));
  EXPECT_EQ(pool.kept(), 0u) << "small buffers are left to malloc";
  for (std::size_t i = 0; i < BlockPool::kMaxKept + 3; ++i) pool.give(Eigen::VectorXf(BlockPool::kMinFloats + i));
  EXPECT_EQ(pool.kept(), BlockPool::kMaxKept);
  EXPECT_EQ(pool.take(BlockPool::kMinFloats).size(), Eigen::Index(BlockPool::kMinFloats));  // the oldest went
  EXPECT_EQ(pool.kept(), BlockPool::kMaxKept) << "no buffer of that size was kept: a new one";
  EXPECT_EQ(pool.take(BlockPool::kMinFloats + 5).size(), Eigen::Index(BlockPool::kMinFloats + 5));
  EXPECT_EQ(pool.kept(), BlockPool::kMaxKept - 1);
}

}  // namespace
}  // namespace geotrain
