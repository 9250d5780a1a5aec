// A block's merge rule: how the same block of two updates combines on its way up a
// server hierarchy, and what a lossy codec may do to it. Declared by a learner
// (Learner::block_rules, core/learners/learner.h); applied by core/payload/merge.
#pragma once
#include <cstdint>

namespace geotrain {

// How a block of one update combines with the same block of another.
enum class Merge : std::uint8_t {
  kSum,        // entry-wise sum (gradients, model changes, histograms, counts)
  kMax,        // entry-wise maximum
  kMin,        // entry-wise minimum
  kKSmallest,  // candidates of `width` entries (the first is the distance): keep the k smallest
};
const char* merge_name(Merge m);

// What a lossy codec may do to a block on its way (compared with what each
// codec does in core/config/learner_fit.cc).
enum class Precision : std::uint8_t {
  kAny,       // any lossy codec, DGT's zero-filling (gradients, model changes)
  kRounding,  // only codecs that keep every entry and round it (fp16): histograms, statistics
  kExact,     // lossless codecs only (counts that must add exactly, candidate lists)
};

struct BlockRule {
  std::uint32_t key = 0;
  Merge merge = Merge::kSum;
  std::uint32_t width = 1;  // kKSmallest: entries per candidate
  std::uint32_t k = 0;      // kKSmallest: candidates kept
  Precision precision = Precision::kAny;
};

}  // namespace geotrain
