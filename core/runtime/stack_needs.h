// What one part of the training stack (a scheduler, DGT, P3, MultiGPS) asks
// of the rest of a scenario. Each part declares it beside its own code (a
// registry entry, or the part's header); core/config/stack_fit.h turns the
// declarations into the loader's refusals, so the rules of which parts
// combine are stated once.
#pragma once
#include <string>

namespace geotrain {

struct StackNeeds {
  // Every member pushes and pulls every round and all pull one model: it runs
  // only under a policy that needs nothing else of the learner (bsp).
  bool lockstep = false;
  std::string why_lockstep;
  // Streams that must carry no codec: none, the part's own tier's, or all.
  enum class Dense { kNone, kOwnTier, kAll } dense = Dense::kNone;
  std::string why_dense;
  // Sends a push in parts (two such parts would cut each other's parts).
  bool cuts_pushes = false;
  // Passes messages on, or serves them, whole: no part may cut them.
  bool whole_messages = false;
  std::string why_whole;
  // Decides who sends to whom (relays, shard servers): one such part per tier at most.
  bool routes = false;
};

}  // namespace geotrain
