// Merging two updates block by block under a learner's rules (BlockRule in
// core/payload/block_rule.h): what every role that combines pushes calls (the
// servers' Aggregator, a worker's backlog, a scheduled group's relay). Max,
// min and k-smallest are exact in any order (k-smallest breaks distance ties by
// the rest of the candidate, then by position); a float sum of two terms is too,
// but one of three or more depends on its order, so the servers' Aggregator
// merges a round's pushes in the order of their senders' ids.
#pragma once
#include <vector>

#include "core/payload/block_rule.h"
#include "core/payload/message.h"

namespace geotrain {

// into = merge(into, p): keys without a rule sum (accumulate, coded blocks
// decoded), the others merge by their rule; losses and contributors add.
// REQUIRES: `into` is dense and holds every key p carries, with the same lengths.
void merge(Payload& into, const Payload& p, const std::vector<BlockRule>& rules);
// The same on two dense blocks of one key.
void merge_block(Eigen::VectorXf& into, const Eigen::VectorXf& from, const BlockRule& rule);

}  // namespace geotrain
