// Sums the pushes of one round from a known set of senders. Shared by the local
// and global servers: "wait for N pushes" is policy state, not transport.
#pragma once
#include <memory>

#include "core/message.h"

namespace geotrain {

class Aggregator {
 public:
  explicit Aggregator(int expected) : expected_(expected) {}
  // Adds a push; returns true when all expected pushes of the round are in.
  bool add(const Payload& p);
  // The sum so far; resets for the next round.
  std::shared_ptr<Payload> take();
  int expected() const { return expected_; }

 private:
  int expected_;
  int received_ = 0;
  std::shared_ptr<Payload> sum_;
};

}  // namespace geotrain
