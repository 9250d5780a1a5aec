// The Runtime of one real-mode node (one process per node): wall-clock time
// since the start barrier, Boost.Asio timers, authenticated TCP links for the
// reliable channel and UDP datagrams for best-effort, and real compute padded
// to the modelled step time. Single-threaded: every callback runs on one
// io_context thread, so actors never run concurrently or re-entrantly.
//
// Lifecycle: run() listens, joins the start barrier (every node reports READY
// to the global server, which answers GO to all), starts the actor, and
// returns when the job is over (the global server's stop() broadcasts SHUTDOWN).
// Start-up is bounded: when not every node is READY after startup_timeout_s,
// the global server starts without missing workers (GO names them, so their
// parents count them down at once; they may still join late) and ends the job
// (SHUTDOWN to the others, exit kExitJobFailed) when a server of any kind is
// missing. A node that gets no GO within twice that gives up (kExitParentLost).
// A node started while the job runs (a restarted process) gets a late GO and
// its actor rejoin()s; a restarted global server finds its checkpoint and
// rejoin()s without a barrier. Job time is wall-clock time since the GO epoch,
// which every node shares (it travels in GO and is kept with the checkpoint).
//
// Failure detection: every node sends a HEARTBEAT to its parent each
// heartbeat_s; a parent that hears nothing from a child for
// failure_timeout_s reports it down to its actor (logged, and listed in the
// node report), and reports it back when it is heard again. Nodes without a
// parent (the state server, MultiGPS's other shard servers) heartbeat to the
// global server, which ends the job (kExitJobFailed) when one stays silent for
// 10 x failure_timeout_s: the job cannot go on without it, and a restarted one
// is back well within that.
//
// TLS (cfg.tls): links that must be encrypted (between DCs, or all) connect to
// the peer's TLS port; a peer that should have used TLS but arrived on the
// plain port is refused after it authenticates.
#pragma once
#include <boost/asio.hpp>
#include <chrono>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <unordered_map>

#include "core/job.h"
#include "core/monitor.h"
#include "core/runtime.h"
#include "real/datagram.h"
#include "real/inbound_link.h"
#include "real/outbound_link.h"
#include "real/real_config.h"
#include "real/round_watchdog.h"

namespace geotrain::real {

struct NodeEvent {
  double time_s;
  std::string what;
};

struct NodeCounters {
  NetCounters sent;                  // frame bytes this node sent, by link class
  std::uint64_t steps_too_slow = 0;  // real compute exceeded the modelled step time
  double overrun_s = 0;              // total excess over the model
  std::uint64_t rejected_links = 0;  // unauthenticated or malformed peers disconnected
  std::uint64_t rejected_datagrams = 0;
  std::uint64_t tls_links = 0;  // inbound links admitted over TLS
};

class RealNode : public Runtime {
 public:
  RealNode(boost::asio::io_context& io, const RealConfig& cfg, const TrainingJob& job, NodeId self, std::string secret);
  ~RealNode() override;

  NodeId self() const override { return self_; }
  TimeNs now() const override;
  TimerId schedule(TimeNs delay, std::function<void()> fn) override;
  void cancel(TimerId id) override;
  void send(Message msg) override;
  void compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) override;
  std::mt19937_64& rng() override { return rng_; }
  void stop() override;

  // Runs until SHUTDOWN. REQUIRES: actor was built with *this. `restore`: this
  // is a restarted global server that resumes from its checkpoint.
  void run(Actor& actor, bool restore = false);
  // Global server: `rounds` reads the rounds applied so far. A job whose rounds
  // stop (a fault nothing recovers from) ends with an error instead of hanging:
  // after 12 x the failure timeout or 10 x the longest gap between rounds seen,
  // whichever is longer, without a round.
  void watch_progress(std::function<std::int64_t()> rounds) { rounds_probe_ = std::move(rounds); }
  const std::vector<NodeEvent>& events() const { return events_; }
  // The job's time zero (the GO barrier), as nanoseconds since the Unix epoch.
  std::int64_t epoch_unix_ns() const;
  const NodeCounters& counters() const { return counters_; }
  // Why this node stopped on its own ("" = the job ended normally), and the
  // process exit status that goes with it.
  const std::string& error() const { return error_; }
  int exit_code() const { return exit_code_; }
  static constexpr int kExitParentLost = 3;  // its parent is gone: a fault, not a failure of this node
  static constexpr int kExitJobFailed = 4;   // the job cannot go on; the node report's error says why
  static constexpr int kExitStopped = 5;     // stopped by SIGTERM/SIGINT from outside; its report is written
  void log(const std::string& line) const;

 private:
  void listen();
  void receive_datagram();
  void on_frame(NodeId peer, Frame&& f);
  void send_frame(NodeId to, FrameType t, std::shared_ptr<const ByteSpans> body, int priority);
  void send_datagrams(const Message& m);
  void start_actor(bool rejoin);
  void begin_job(const std::vector<NodeId>& absent);  // global server: GO to every READY node, then start
  void on_startup_timeout();
  void on_go(const Bytes& body);
  void send_go(NodeId to, bool late, const std::vector<NodeId>& absent);
  void send_ready();
  bool is_child(NodeId n) const;
  void heartbeat();
  void stop_when_flushed(std::chrono::steady_clock::time_point deadline);
  void record(const std::string& what);
  void fail(const std::string& why, int exit_code = 1);
  void count_sent(NodeId to, std::size_t bytes);
  OutboundLink& link(NodeId to);
  void accept(boost::asio::ip::tcp::acceptor& from, boost::asio::ssl::context* tls);
  bool tls_between(NodeId a, NodeId b) const;
  std::string admit(NodeId peer, bool tls);

  boost::asio::io_context& io_;
  const RealConfig& cfg_;
  const TrainingJob& job_;
  NodeId self_;
  std::string secret_;
  std::mt19937_64 rng_;
  Actor* actor_ = nullptr;
  std::unique_ptr<boost::asio::ssl::context> tls_server_, tls_client_;  // when cfg.tls is on
  boost::asio::ip::tcp::acceptor acceptor_, tls_acceptor_;
  boost::asio::ip::udp::socket udp_;
  std::array<std::uint8_t, 65536> udp_buf_;
  boost::asio::ip::udp::endpoint udp_from_;
  std::unordered_map<NodeId, std::shared_ptr<OutboundLink>> out_;
  std::list<std::shared_ptr<InboundLink>> in_;
  std::unordered_map<TimerId, std::unique_ptr<boost::asio::steady_timer>> timers_;
  TimerId next_timer_ = 1;
  std::chrono::system_clock::time_point epoch_;
  std::map<NodeId, std::chrono::steady_clock::time_point> last_heard_;  // children
  std::set<NodeId> down_;
  std::function<std::int64_t()> rounds_probe_;
  std::optional<std::chrono::steady_clock::time_point> last_tick_;  // the last heartbeat() run
  RoundWatchdog watchdog_;
  std::vector<NodeEvent> events_;
  bool started_ = false, stopping_ = false;
  std::set<NodeId> ready_;                       // global server: nodes that reported READY
  std::set<NodeId> absent_;                      // nodes that had not joined when the job started (from GO)
  std::map<NodeId, std::uint64_t> incarnation_;  // global server: the READY nonce of each node's process
  std::uint64_t nonce_ = 0;                      // this process's READY nonce
  std::vector<Message> early_;                   // arrived before our GO; delivered at start
  std::uint64_t next_datagram_msg_ = 0;          // the last message number used (see send_datagrams)
  NodeCounters counters_;
  DatagramAssembler datagrams_;
  std::size_t frame_limit_;
  std::string error_;
  int exit_code_ = 0;
  // Global server: the nodes it watches besides its children (state server,
  // other shard servers), whose loss for good ends the job.
  const std::vector<NodeId> services_;
  bool parent_written_ = false;  // a frame reached our parent's socket since the last heartbeat
  int parent_misses_ = 0;        // heartbeats in a row with nothing written to the parent
};

}  // namespace geotrain::real
