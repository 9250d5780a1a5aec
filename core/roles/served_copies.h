// A server's copies of its children's models, for answering pulls with only
// what changed (a pull codec other than none, or a policy that pulls changes:
// Gaia). A child keeps its copy by adding each response; the server keeps its
// own copy of that copy with the same arithmetic, so the two are the same bits,
// and serves `params - copy`, encoded. Whatever a lossy codec leaves out is
// still in the difference next time: the copy is the error feedback. A child
// the server knows nothing of (a restart on either side) gets the whole model
// as a change from zeros (Payload::from_zero). A model whose blocks grow (a
// forest, a level a round) is served as the change from the copy extended by
// zeros; one whose block shrank, or a key the server keeps for itself, goes
// as the server publishes it (the whole model when a block shrank).
#pragma once
#include <map>
#include <memory>

#include "core/payload/message.h"
#include "core/roles/stream_encoder.h"

namespace geotrain {

class ServedCopies {
 public:
  // Children start from `initial` (every node does).
  explicit ServedCopies(const ParamSet& initial) : initial_(&initial) {}
  // The change from `child`'s copy to `params`, through `codec` (REQUIRES:
  // active; `sparse` sends the changed entries exactly); `whole`: from zeros.
  Sent serve(NodeId child, const ParamSet& params, StreamEncoder& codec, bool whole, TimeNs now);
  // The child adds its own push to its copy (Gaia's background sync): so does the server.
  void add_own_push(NodeId child, const Payload& push);
  // Forget every copy (a restarted server): each child's next answer starts from zeros.
  void forget() {
    copies_.clear();
    unknown_ = true;
  }

 private:
  Payload& copy(NodeId child);
  const ParamSet* initial_;
  std::map<NodeId, Payload> copies_;
  std::map<NodeId, std::uint64_t> served_;  // answers sent to each child: its answers' random draws
  bool unknown_ = false;                    // children's copies are not the initial model (after forget())
};

// A child's side: its copy of the server's model, advanced by each response.
void apply_served(ParamSet& copy, const Payload& response);

}  // namespace geotrain
