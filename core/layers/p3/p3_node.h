// P3, priority-based parameter propagation (REFERENCE.md section 8), as a
// layer between a role and its runtime (as DGT and the schedulers are): no
// role knows. Every dense push and pull response is sliced into parts of at
// most `slice_elements` entries (fp32 `segment` blocks), each sent with
// priority -(its tensor's index in the model), so the runtime's send queue
// puts the first layer's slices ahead of anything later, this message's or
// the next one's. The receiver reassembles the message and hands it to its
// role whole; a message carrying coded blocks goes unsliced.
//
// What P3 buys is overlap: the next step's forward pass over a layer can start
// once that layer has arrived. The role installs a model only when all of it
// is in, so the layer accounts for it instead: when the role starts a step
// right after a model arrived, the step's cost is cut by the forward work
// that could already have run (layer k's forward, `forward_fraction` of the
// step spread over the tensors by size, starts at max(its slices' arrival,
// the previous layer's forward end)). The step's length is this node's last
// measured one, so nothing is assumed about the runtime's compute model.
#pragma once
#include <map>
#include <memory>
#include <vector>

#include "core/layers/p3/p3_spec.h"
#include "core/runtime/layer_node.h"
#include "core/runtime/stack_needs.h"

namespace geotrain {

// What P3 asks of the rest of the stack (core/config/stack_fit.h): it sends pushes in slices.
StackNeeds p3_stack_needs();

class P3Node : public LayerNode {
 public:
  // `model`: the tensors, in layer order (their keys and sizes).
  P3Node(Runtime& rt, const P3Spec& spec, const ParamSet& model);

  void send(Message msg) override;
  void compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) override;

  void on_message(const Message& msg) override;
  // The role's report plus "p3": messages sliced and reassembled (and how many
  // of those completed tensor by tensor in layer order), parts sent, steps
  // started early and the compute time that saved, malformed parts refused.
  nlohmann::json report(TimeNs now) const override;

 private:
  struct Pending {
    Message first;  // part 0: the header fields and the payload's losses and counts
    std::vector<CodedBlock> slices;
    std::vector<bool> got;
    std::size_t received = 0;
    std::map<std::uint32_t, TimeNs> arrived;  // per tensor, when its last slice came
  };
  void receive_part(const Message& msg);
  // Seconds the next step can save given when each tensor arrived, all by `now`.
  double overlap_s(const std::map<std::uint32_t, TimeNs>& arrived, TimeNs now) const;

  P3Spec spec_;
  std::map<std::uint32_t, std::size_t> index_;                      // key -> layer order
  std::vector<std::pair<std::size_t, std::uint32_t>> layer_order_;  // (index, key), first layer first
  std::map<std::uint32_t, double> share_;                           // key -> its share of the model's entries
  std::uint32_t seq_ = 0;
  std::map<std::pair<NodeId, std::uint32_t>, Pending> pending_;
  // While the role handles a model that came in slices: when each tensor of it arrived.
  bool fresh_model_ = false;
  std::map<std::uint32_t, TimeNs> model_arrived_;
  double step_s_ = 0;  // the last step's measured length, as if not shortened
  std::uint64_t sliced_ = 0, parts_sent_ = 0, assembled_ = 0, in_order_ = 0, early_steps_ = 0, rejected_ = 0;
  double saved_s_ = 0;
};

}  // namespace geotrain
