// Merges (sums, unless the learner says otherwise) the pushes of one round from a known membership. Shared by the local
// and global servers; when a round is complete is its SyncPolicy's decision. A member reported down is no longer waited
// for; one that comes back is waited for again, and so is one that pushes (a push is proof of life). A member's second
// push in one round is ignored.
//
#pragma once
#include <memory>
#include <set>
#include <vector>

#include "core/learners/merge.h"
#include "core/message.h"
#include "core/policies/sync_policy.h"

namespace geotrain {

class Aggregator {
 public:
  // `rules`: how the learner's blocks merge (core/learners/merge.h); empty: every block sums.
  Aggregator(const std::vector<NodeId>& members, const SyncPolicy& policy, std::vector<BlockRule> rules = {})
      : policy_(policy), rules_(std::move(rules)), live_(members.begin(), members.end()) {}
  // Adds `from`'s push; returns true when the open round is complete.
  bool add(NodeId from, const Payload& p);
  // `m` is down; returns true if that completes the open round.
  bool drop(NodeId m);
  void readmit(NodeId m) { live_.insert(m); }
  bool is_live(NodeId m) const { return live_.count(m) > 0; }
  // The open round's sum (and who contributed); opens the next round.
  std::shared_ptr<Payload> take(std::vector<NodeId>* contributors = nullptr);

 private:
  bool complete() const;
  const SyncPolicy& policy_;
  std::vector<BlockRule> rules_;
  std::set<NodeId> live_, pushed_;
  std::shared_ptr<Payload> sum_;
};

}  // namespace geotrain
