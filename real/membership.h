// Who is in a real-mode job, and who is still alive: the start barrier and
// failure detection of one node, apart from its sockets (real/real_node.h
// carries the frames, and runs the actor).
//
// Start barrier: every node repeats READY (with its process's nonce) to the
// global server each heartbeat until GO arrives; GO carries the job's epoch
// (time zero, which every node shares). When not every node is READY after
// startup_timeout_s, the global server starts without missing workers (GO
// names them, so their parents count them down at once; they may still join
// late) and ends the job when a server of any kind is missing. A node with no
// GO within twice that gives up. A node that reports READY to a running job (a
// restarted process: a new nonce) gets a late GO and its actor rejoin()s; a
// restarted global server resumes from its checkpoint without a barrier.
//
// Liveness: each heartbeat_s a node sends HEARTBEAT to its parent (nodes
// without one, the state server and MultiGPS's other shard servers, to the
// global server). A child silent for failure_timeout_s is declared down, and
// up again when heard; a parent it cannot write to for 2 (the global server
// without a checkpoint) or 10 failure timeouts is gone; a service silent for
// 10 failure timeouts ends the job; and the RoundWatchdog ends a job whose
// rounds stop. A heartbeat far later than scheduled means this node was itself
// stalled: its children's silence is not counted then.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/topology/deployment.h"
#include "real/auth.h"  // Bytes
#include "real/frame.h"
#include "real/real_config.h"
#include "real/round_watchdog.h"

namespace geotrain::real {

// What membership asks of the node it runs in.
class MembershipHost {
 public:
  virtual ~MembershipHost() = default;
  virtual void send_control(NodeId to, FrameType type, Bytes body) = 0;  // a control frame, high priority
  virtual void after(double seconds, std::function<void()> fn) = 0;
  virtual void record(const std::string& event) = 0;  // an event of the node report, logged
  virtual void log(const std::string& line) const = 0;
  virtual bool stopping() const = 0;
  virtual void fail(const std::string& why, int exit_code) = 0;
  // The start barrier failed: end with `why`, telling `tell` (the nodes that had joined) to stop too.
  virtual void abandon(const std::string& why, int exit_code, const std::set<NodeId>& tell) = 0;
  // To the actor, in this order at the start: start (or rejoin), peers down, the messages held.
  virtual void start_actor(bool rejoin) = 0;
  virtual void peer_down(NodeId peer) = 0;
  virtual void peer_up(NodeId peer) = 0;
  virtual void release_held() = 0;
};

class Membership {
 public:
  using Clock = std::chrono::steady_clock;
  using WallClock = std::chrono::system_clock;
  static constexpr int kExitParentLost = 3, kExitJobFailed = 4;  // RealNode's exit codes

  Membership(MembershipHost& host, const RealConfig& cfg, const Deployment& dep, NodeId self);

  // Joins the job: `restore` for a restarted global server (epoch from its checkpoint).
  void begin(bool restore);
  // Any frame from `peer` shows it is alive.
  void heard_from(NodeId peer);
  // A frame reached the parent's socket (the parent is reachable).
  void wrote_to_parent() { parent_written_ = true; }
  void on_ready(NodeId peer, const Bytes& body);  // the global server's
  void on_go(const Bytes& body);
  // Global server: `rounds` reads the rounds applied so far (for the RoundWatchdog).
  void watch_progress(std::function<std::int64_t()> rounds) { rounds_probe_ = std::move(rounds); }

  bool started() const { return started_; }
  // Declared down, or never joined: not waited for when the node leaves.
  bool gone(NodeId n) const { return down_.count(n) || absent_.count(n); }
  WallClock::time_point epoch() const { return epoch_; }
  std::int64_t epoch_unix_ns() const;

 private:
  void send_ready();
  void send_go(NodeId to, bool late, const std::vector<NodeId>& absent);
  void begin_job(const std::vector<NodeId>& absent);
  void on_startup_timeout();
  void start(bool rejoin);
  void heartbeat();
  bool is_child(NodeId n) const;
  const std::string& name(NodeId n) const { return dep_.nodes[std::size_t(n)].name; }

  MembershipHost& host_;
  const RealConfig& cfg_;
  const Deployment& dep_;
  const NodeId self_;
  const std::vector<NodeId> services_;  // global server: nodes it watches besides its children
  WallClock::time_point epoch_;
  bool started_ = false;
  std::set<NodeId> ready_;                          // global server: nodes that reported READY
  std::set<NodeId> absent_;                         // nodes that had not joined when the job started (from GO)
  std::map<NodeId, std::uint64_t> incarnation_;     // global server: the READY nonce of each node's process
  std::uint64_t nonce_ = 0;                         // this process's READY nonce
  std::map<NodeId, Clock::time_point> last_heard_;  // children and services
  std::set<NodeId> down_;
  std::optional<Clock::time_point> last_tick_;  // the last heartbeat() run
  RoundWatchdog watchdog_;
  std::function<std::int64_t()> rounds_probe_;
  bool parent_written_ = false;  // a frame reached our parent's socket since the last heartbeat
  int parent_misses_ = 0;        // heartbeats in a row with nothing written to the parent
};

}  // namespace geotrain::real
