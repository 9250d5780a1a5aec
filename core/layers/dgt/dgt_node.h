// DGT, differential gradient transmission (REFERENCE.md section 6), as a layer
// between a role and its runtime: the role sends a whole push and receives
// whole pushes; this layer sends a push across the WAN in parts and
// reassembles them, so no role or policy knows DGT exists.
//
// Sender: each dense tensor is cut into blocks of spec.block_bytes; a block's
// contribution is an EMA of its mean |value| (weight alpha on the past).
// Blocks of zero mean are not sent, except every tensor's last block, which
// always goes reliably in part 0 (the marker, which also carries the push's
// coded blocks, losses and contributors). Of the rest, the top round(K n) by
// contribution go reliably in part 1; the others one block per part over C
// channels of descending priority: mode 1 over the best-effort channel, paced
// at rate_fraction of the path's WAN bandwidth and started once the reliable
// parts could have left at that rate (strict priority); modes 2 and 3 on the reliable
// channel at lower priority (3 quantises them to 4 bits, with residual).
// Adaptive K: K_t = max(K0 loss_t / loss_0, K_min), at most 1.
//
// Receiver: the marker (after part 1 on the same reliable stream) starts a
// deadline, which every later part of the push moves on (deadline_ms of
// silence: the best-effort stream has ended, what is missing was lost or is
// late); at it, or once every part is in, the push is assembled into
// zero-filled tensors and handed to the role. A part arriving after its push
// was assembled is late: it is added into the sender's next push.
#pragma once
#include <map>
#include <memory>
#include <set>
#include <vector>

#include "core/layers/dgt/dgt_spec.h"
#include "core/runtime/layer_node.h"
#include "core/runtime/stack_needs.h"
#include "core/topology/topology.h"

namespace geotrain {

// What DGT asks of the rest of the stack (core/config/stack_fit.h): it sends WAN pushes in parts.
StackNeeds dgt_stack_needs();

class DgtNode : public LayerNode {
 public:
  // `dc_of`: every node's DC; `topology` gives each DC pair's WAN bandwidth (mode 1 pacing);
  // `model`: the tensors a push may hold (a part naming another key or length is dropped).
  DgtNode(Runtime& rt, const DgtSpec& spec, std::vector<int> dc_of, const Topology& topology, const ParamSet& model);

  // Runtime, for the role: pushes across the WAN go in parts, the rest through.
  void send(Message msg) override;

  // Actor, for the runtime: parts are reassembled, the rest through.
  void on_message(const Message& msg) override;
  // The role's report plus "dgt": blocks sent per channel (0: reliable), on
  // time and late per channel as received, K over time, pushes assembled.
  nlohmann::json report(TimeNs now) const override;

 private:
  struct FromSender {
    struct Pending {
      std::vector<std::shared_ptr<const Payload>> parts;  // as they arrived, the marker among them
      std::shared_ptr<const Payload> marker;
      std::int64_t round = 0;
      std::size_t received = 0, expected = 0;
      std::set<int> got;  // part numbers in: a repeated one is dropped
      TimerId deadline = 0;
      bool timer = false;
    };
    std::map<std::uint32_t, Pending> pending;          // by seq
    std::uint32_t assembled = 0;                       // the last seq handed to the role
    std::vector<std::shared_ptr<const Payload>> late;  // parts of assembled pushes: into the next one
  };
  void send_in_parts(Message msg);
  double next_k(const Payload& p);
  void pace();
  void arm_pacer(TimeNs delay);
  double rate_bps(NodeId to);  // mode 1 pacing: rate_fraction of the WAN path's bandwidth
  void receive_part(const Message& msg);
  void assemble(NodeId from, std::uint32_t seq);
  bool across_wan(NodeId a, NodeId b) const;

  DgtSpec spec_;
  std::vector<int> dc_of_;
  const Topology& topology_;
  // Sender state.
  std::map<std::uint32_t, Eigen::VectorXf> contribution_;  // per key, one entry per block
  std::map<std::uint32_t, Eigen::VectorXf> residual_;      // per key (mode 3)
  std::uint32_t seq_ = 0;
  double loss0_ = 0;
  std::vector<std::pair<double, double>> k_history_;  // (time s, K) per push
  std::vector<std::uint64_t> sent_;                   // blocks per channel
  std::uint64_t zero_blocks_ = 0;                     // not sent: zero contribution
  std::uint64_t unsent_ = 0;                          // mode 1: still waiting when the next push came
  std::vector<Message> pacing_;                       // mode 1: best-effort parts waiting, in send order
  std::size_t paced_ = 0;                             // the next one to send
  bool pacer_armed_ = false;
  std::map<NodeId, double> rate_bps_;  // mode 1 pacing, per destination
  TimeNs hold_until_ = 0;              // best-effort blocks wait until the reliable ones could have left
  // Receiver state.
  std::map<NodeId, FromSender> from_;
  std::vector<std::uint64_t> on_time_, late_;
  std::uint64_t assembled_ = 0;
  std::uint64_t rejected_ = 0;                        // malformed, repeated or excess parts and blocks, dropped
  std::map<std::uint32_t, std::size_t> tensor_size_;  // by key, from the model
  // What one sender may have waiting: honest senders have a push or two in flight.
  static constexpr std::size_t kMaxPending = 16, kMaxLate = 4096;
};

}  // namespace geotrain
