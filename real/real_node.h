// The Runtime of one real-mode node (one process per node): wall-clock time
// since the start barrier, Boost.Asio timers, authenticated TCP links for the
// reliable channel and UDP datagrams for best-effort, and real compute padded
// to the modelled step time. Single-threaded: every callback runs on one
// io_context thread, so actors never run concurrently or re-entrantly.
//
// Lifecycle: run() listens, joins the job through its Membership (the start
// barrier and failure detection: real/membership.h), starts the actor when
// membership says so, and returns when the job is over (the global server's
// stop() broadcasts SHUTDOWN). Job time is wall-clock time since the GO epoch,
// which every node shares.
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

#include "core/job/job.h"
#include "core/run/monitor.h"
#include "core/runtime/runtime.h"
#include "real/datagram.h"
#include "real/inbound_link.h"
#include "real/membership.h"
#include "real/outbound_link.h"
#include "real/real_config.h"

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

class RealNode : public Runtime, private MembershipHost {
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
  void watch_progress(std::function<std::int64_t()> rounds) { membership_.watch_progress(std::move(rounds)); }
  const std::vector<NodeEvent>& events() const { return events_; }
  // The job's time zero (the GO barrier), as nanoseconds since the Unix epoch.
  std::int64_t epoch_unix_ns() const;
  const NodeCounters& counters() const { return counters_; }
  // Why this node stopped on its own ("" = the job ended normally), and the
  // process exit status that goes with it.
  const std::string& error() const { return error_; }
  int exit_code() const { return exit_code_; }
  static constexpr int kExitParentLost = Membership::kExitParentLost;  // its parent is gone: a fault, not a failure
  static constexpr int kExitJobFailed = Membership::kExitJobFailed;    // the job cannot go on; the report says why
  static constexpr int kExitStopped = 5;  // stopped by SIGTERM/SIGINT from outside; its report is written
  void log(const std::string& line) const override;

 private:
  // MembershipHost: what the start barrier and the failure detector (real/membership.h) do through the node.
  void send_control(NodeId to, FrameType type, Bytes body) override;
  void after(double seconds, std::function<void()> fn) override;
  void record(const std::string& what) override;
  bool stopping() const override { return stopping_; }
  void fail(const std::string& why, int exit_code) override;
  void abandon(const std::string& why, int exit_code, const std::set<NodeId>& tell) override;
  void start_actor(bool rejoin) override;
  void peer_down(NodeId peer) override;
  void peer_up(NodeId peer) override;
  void release_held() override;

  void listen();
  void receive_datagram();
  void on_frame(NodeId peer, Frame&& f);
  void send_frame(NodeId to, FrameType t, std::shared_ptr<const ByteSpans> body, int priority);
  void send_datagrams(const Message& m);
  void stop_when_flushed(std::chrono::steady_clock::time_point deadline);
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
  std::vector<NodeEvent> events_;
  bool stopping_ = false;
  std::vector<Message> early_;           // arrived before our GO; delivered at start
  std::uint64_t next_datagram_msg_ = 0;  // the last message number used (see send_datagrams)
  NodeCounters counters_;
  DatagramAssembler datagrams_;
  std::size_t frame_limit_;
  std::string error_;
  int exit_code_ = 0;
  Membership membership_;  // last: it calls back into the node
};

}  // namespace geotrain::real
