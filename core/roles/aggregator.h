// Merges (sums, unless the learner says otherwise) the pushes of one round from a known membership. Shared by the local
// and global servers; when a round is complete is its SyncPolicy's decision. A member reported down is no longer waited
// for; one that comes back is waited for again, and so is one that pushes (a push is proof of life). A member's second
// push in one round is ignored.
//
// The round's pushes are held and merged in the order of their senders' ids when the round is taken, not in the order
// they arrived: a float sum of three or more terms depends on its order, and in real mode the network decides arrival
// order, so a running sum would give a server with three or more children different bits from run to run (and from
// the simulation) under a policy whose computation does not otherwise depend on timing.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "core/payload/merge.h"
#include "core/payload/message.h"
#include "core/policies/sync_policy.h"

namespace geotrain {

class Aggregator {
 public:
  // `rules`: how the learner's blocks merge (core/payload/merge.h); empty: every block sums.
  Aggregator(const std::vector<NodeId>& members, const SyncPolicy& policy, std::vector<BlockRule> rules = {})
      : policy_(policy), rules_(std::move(rules)), live_(members.begin(), members.end()) {}
  // Holds `from`'s push (REQUIRES: non-null); returns true when the open round is complete.
  bool add(NodeId from, std::shared_ptr<const Payload> p);
  // `m` is down; returns true if that completes the open round.
  bool drop(NodeId m);
  void readmit(NodeId m);
  bool is_live(NodeId m) const { return live_.count(m) > 0; }
  // The open round's merge, in the order of the senders' ids (and who contributed: those ids, ascending); opens the
  // next round. Null when nothing was pushed.
  std::shared_ptr<Payload> take(std::vector<NodeId>* contributors = nullptr);

 private:
  bool complete() const;
  const SyncPolicy& policy_;
  std::vector<BlockRule> rules_;
  std::set<NodeId> live_;
  std::map<NodeId, std::shared_ptr<const Payload>> pushed_;  // the open round's pushes, by sender
  // How many live members pushed this round: kept as members push, drop and come
  // back, so that a push is not a walk over every member (a global server with a
  // thousand children would walk its whole membership for each of their pushes).
  std::size_t live_pushed_ = 0;
};

}  // namespace geotrain
