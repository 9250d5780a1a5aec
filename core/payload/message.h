// Messages exchanged by roles. A message carries an immutable payload (shared,
// never copied by a runtime) and the number of bytes it costs on the wire, which
// is what a simulated network charges (the payload itself is not serialised in
// simulation; real mode encodes it).
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "core/codec/coded_block.h"
#include "core/payload/params.h"

namespace geotrain {

using NodeId = int;

enum class MsgKind : std::uint8_t {
  kPush,         // an update (gradient, delta) travelling towards the global server
  kPushAck,      // the push of round r is accounted for; under FSA: the global round is done
  kPullRequest,  // ask for the current parameters
  // Parameters: the answer to a pull request, or, under a policy whose children
  // wait for the model, sent unasked right after the ack (core/roles/global_server.h).
  kPullResponse,
  kControl,      // small control messages (stop, hello, ...)
  kRelease,      // the slowest member's clock (steps the server has from it): policies that bound staleness
  kStateReport,  // worker -> state server, before each step: round = local steps so far, step_s, transfer_s
  kStateReply,   // state server -> worker: round = 1 "push now" (step_s: the slack), 0 "one more local step"
  kPushPart,     // one part of a push sent in parts (core/layers/dgt): seq names the push, part of parts
  // A scheduled group's coordinator and its members (core/layers/sched): orders name
  // round r and, in seq, the other node; reports name the hop's sender in seq
  // and carry its duration (step_s) and bytes (transfer_s).
  kRelayOrder,   // coordinator -> holder: send round r's model to node seq
  kPushOrder,    // coordinator -> member: send round r's push (after step_s merges) to node seq
  kModelReport,  // member -> coordinator: round r's model arrived from seq
  kMergeReport,  // member -> coordinator: round r's push of seq arrived and is summed into mine
  kReadyReport,  // member -> coordinator: my push of round r is ready
};
constexpr MsgKind kLastMsgKind = MsgKind::kReadyReport;
const char* to_string(MsgKind k);

// The round of a kPullRequest asking a server that pulls_changes() for the
// whole model, as a change from zeros (a restarted child has nothing).
constexpr std::int64_t kWholeModel = -1;

enum class Channel : std::uint8_t { kReliable, kBestEffort };

// What a push or pull carries: every key of the model once, as a dense block
// or as a coded one (compressed, sparse), each list in ascending key order.
struct Payload {
  ParamSet blocks;
  std::vector<CodedBlock> coded;
  double loss_sum = 0;   // sum of the training losses of the contributing steps
  int contributors = 0;  // how many worker steps the blocks sum over
  // A pull response of changes (core/roles/served_copies.h) that starts from
  // zeros: the child resets its copy first (it restarted, or the server did).
  bool from_zero = false;
};
// Puts a list of blocks (dense or coded) in the ascending key order a Payload
// keeps; blocks of one key keep their order.
template <class Blocks>
void sort_by_key(Blocks& blocks) {
  std::stable_sort(blocks.begin(), blocks.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
}
// into += p: blocks (by key; coded ones decoded), losses and contributors.
// REQUIRES: `into` is dense (no coded blocks) and holds every key `p` carries.
void accumulate(Payload& into, const Payload& p);
// p as dense blocks, in ascending key order (coded ones decoded).
Payload densify(const Payload& p);

struct Message {
  MsgKind kind = MsgKind::kControl;
  NodeId from = -1;  // this hop's sender: a runtime sets it, real mode checks it is the authenticated peer
  NodeId to = -1;    // this hop's receiver
  // Where the message began and where it ends, when it travels further than
  // one hop (a scheduled group's relays, core/layers/sched); -1: this hop's from / to.
  // Real mode accepts an origin other than the sender only from a peer that
  // may relay for it (may_relay, core/topology/deployment.h).
  NodeId origin = -1;
  NodeId dest = -1;
  std::int64_t round = 0;
  // A message sent in parts (kPushPart): the sender's number for the whole,
  // and which part this is (part < parts); all 0 for a message sent whole.
  std::uint32_t seq = 0;
  std::uint16_t part = 0, parts = 0;
  // Timings a few kinds carry. kStateReport: the sender's last step (compute)
  // and its estimate of the time its update takes to reach the top server.
  // kPullResponse: transfer_s = how long the sending server took to fetch
  // these parameters from its own parent (0 at the top), so a worker can
  // estimate the whole path's transfer time.
  double step_s = 0, transfer_s = 0;
  // The hop sender's clock when it sent this message, in seconds: every
  // runtime stamps it in send(), so a receiver measures every transfer's
  // duration (runtimes share one job clock: see Runtime::now).
  double sent_s = 0;
  Channel channel = Channel::kReliable;
  int priority = 0;                        // higher goes first among messages queued at one sender
  std::shared_ptr<const Payload> payload;  // may be null (acks, requests)
  std::uint64_t wire_bytes = 0;            // set by make_message from the payload
};

// What a message costs on the wire is what core/payload/wire writes for it, in both
// runtimes: make_message() sets wire_bytes from wire_size() (core/payload/wire.h).

inline NodeId origin_of(const Message& m) { return m.origin >= 0 ? m.origin : m.from; }
inline NodeId dest_of(const Message& m) { return m.dest >= 0 ? m.dest : m.to; }

Message make_message(MsgKind kind, NodeId from, NodeId to, std::int64_t round,
                     std::shared_ptr<const Payload> payload = nullptr);

// A payload as it goes on the wire with what it costs there, counted once by
// whoever produced it (a stream's encoder counts every payload it sends), so
// the message that carries it is not charged by counting again.
struct Sent {
  std::shared_ptr<const Payload> payload;
  std::uint64_t wire_bytes = 0;  // wire_size(payload)
};
Message make_message(MsgKind kind, NodeId from, NodeId to, std::int64_t round, const Sent& sent);

}  // namespace geotrain
