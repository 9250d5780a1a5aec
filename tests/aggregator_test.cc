// A server's Aggregator (core/roles/aggregator.h) decides when a round is
// complete from who pushed and who is live: members reported down are not
// waited for, one that comes back or pushes is waited for again.
#include "core/roles/aggregator.h"

#include <gtest/gtest.h>

#include "core/policies/policy_registry.h"

namespace geotrain {
namespace {

std::shared_ptr<const Payload> one_step() {
  auto p = std::make_shared<Payload>();
  p->contributors = 1;
  return p;
}

TEST(Aggregator, MembersThatDropAndComeBackDecideWhenABspRoundIsComplete) {
  const auto policy = find_policy("bsp")->make(default_params(*find_policy("bsp")), Role::kGlobalServer);
  Aggregator agg({1, 2, 3}, *policy);

  // 3 goes down before pushing: the round waits for 1 and 2 only.
  EXPECT_FALSE(agg.add(1, one_step()));
  EXPECT_FALSE(agg.drop(3));
  EXPECT_TRUE(agg.add(2, one_step()));
  EXPECT_EQ(agg.take()->contributors, 2);

  // 3 comes back: waited for again.
  agg.readmit(3);
  EXPECT_FALSE(agg.add(1, one_step()));
  EXPECT_FALSE(agg.add(2, one_step()));
  EXPECT_FALSE(agg.add(2, one_step()));  // a second push in one round is ignored
  EXPECT_TRUE(agg.add(3, one_step()));
  EXPECT_EQ(agg.take()->contributors, 3);

  // 2 pushes, then goes down: its push still counts, and 1 and 3 complete the round.
  EXPECT_FALSE(agg.add(2, one_step()));
  EXPECT_FALSE(agg.drop(2));
  EXPECT_FALSE(agg.add(1, one_step()));
  EXPECT_TRUE(agg.add(3, one_step()));
  EXPECT_EQ(agg.take()->contributors, 3);

  // 2 is down; its push is proof of life, so the round waits for all three again.
  EXPECT_FALSE(agg.add(2, one_step()));
  EXPECT_FALSE(agg.add(1, one_step()));
  EXPECT_TRUE(agg.add(3, one_step()));
  agg.take();

  // 1 pushes, goes down and comes back within the round: its push still stands.
  EXPECT_FALSE(agg.add(1, one_step()));
  EXPECT_FALSE(agg.drop(1));
  agg.readmit(1);
  agg.readmit(1);  // twice: no change
  EXPECT_FALSE(agg.add(2, one_step()));
  EXPECT_TRUE(agg.add(3, one_step()));
  agg.take();

  // The last live member that had not pushed goes down: that completes the round.
  EXPECT_FALSE(agg.add(1, one_step()));
  EXPECT_FALSE(agg.add(2, one_step()));
  EXPECT_TRUE(agg.drop(3));
  EXPECT_FALSE(agg.drop(3));  // already down
}

}  // namespace
}  // namespace geotrain
