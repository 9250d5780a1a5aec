#include "real/real_node.h"

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "core/base/atomic_file.h"
#include "core/base/bytes.h"
#include "core/payload/wire.h"
#include "real/datagram.h"
#include "real/frame_limits.h"
#include "real/process.h"
#include "real/tls.h"

namespace geotrain::real {

namespace asio = boost::asio;
using asio::ip::tcp;
using asio::ip::udp;
using Clock = std::chrono::steady_clock;
using WallClock = std::chrono::system_clock;

namespace {
constexpr std::size_t kMaxPendingLinks = 64;

}  // namespace

RealNode::RealNode(asio::io_context& io, const RealConfig& cfg, const TrainingJob& job, NodeId self, std::string secret)
    : io_(io),
      cfg_(cfg),
      job_(job),
      self_(self),
      secret_(std::move(secret)),
      acceptor_(io),
      tls_acceptor_(io),
      udp_(io),
      datagrams_(secret_, self),
      frame_limit_(std::size_t(frame_limit(job, cfg.max_frame_bytes))),
      membership_(*this, cfg, job.deployment(), self) {
  if (cfg.tls.links != TlsLinks::kOff) {
    tls_server_ = tls_server_context(cfg.tls);
    tls_client_ = tls_client_context(cfg.tls);
  }
  std::seed_seq seq{job.scenario().seed, std::uint64_t(self), std::uint64_t(0x6765747261696eULL)};
  rng_.seed(seq);
}

RealNode::~RealNode() {
  for (auto& [id, l] : out_) l->close();
  for (auto& l : in_) l->close("node shutting down");
}

void RealNode::log(const std::string& line) const {
  std::fprintf(stderr, "[%s] %s\n", job_.deployment().nodes[self_].name.c_str(), line.c_str());
}

TimeNs RealNode::now() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(WallClock::now() - membership_.epoch()).count();
}

std::int64_t RealNode::epoch_unix_ns() const { return membership_.epoch_unix_ns(); }

void RealNode::record(const std::string& what) {
  events_.push_back({to_seconds(now()), what});
  log(what);
}

TimerId RealNode::schedule(TimeNs delay, std::function<void()> fn) {
  const TimerId id = next_timer_++;
  auto t = std::make_unique<asio::steady_timer>(io_);
  t->expires_after(std::chrono::nanoseconds(std::max<TimeNs>(0, delay)));
  t->async_wait([this, id, fn = std::move(fn)](const boost::system::error_code& e) {
    if (e) return;  // cancelled
    timers_.erase(id);
    fn();
  });
  timers_[id] = std::move(t);
  return id;
}

void RealNode::cancel(TimerId id) {
  auto it = timers_.find(id);
  if (it == timers_.end()) return;
  it->second->cancel();
  timers_.erase(it);
}

void RealNode::compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) {
  const auto t0 = Clock::now();
  work();
  const TimeNs real = std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - t0).count();
  const TimeNs modelled = job_.compute_model().duration(self_, cost, now(), rng_);
  if (real > modelled) {  // the machine cannot honour the model: say so in the summary
    ++counters_.steps_too_slow;
    counters_.overrun_s += to_seconds(real - modelled);
  }
  schedule(std::max<TimeNs>(0, modelled - real), std::move(done));
}

void RealNode::count_sent(NodeId to, std::size_t bytes) {
  const auto& nodes = job_.deployment().nodes;
  if (to == nodes[self_].parent) membership_.wrote_to_parent();
  (nodes[to].dc == nodes[self_].dc ? counters_.sent.lan_bytes : counters_.sent.wan_bytes) += bytes;
}

bool RealNode::tls_between(NodeId a, NodeId b) const {
  const auto& nodes = job_.deployment().nodes;
  return cfg_.tls.links == TlsLinks::kAll || (cfg_.tls.links == TlsLinks::kWan && nodes[a].dc != nodes[b].dc);
}

std::string RealNode::admit(NodeId peer, bool tls) {
  // One inbound link per peer: a peer that reconnects has given up its old link,
  // so buffered bytes stay within (peers x frame limit).
  for (auto& l : in_)
    if (l->peer() == peer) l->close("node " + std::to_string(peer) + " reconnected");
  if (tls) {
    ++counters_.tls_links;
    return "";
  }
  if (tls_between(peer, self_))
    return std::string("must connect over TLS (tls.links = ") + to_string(cfg_.tls.links) + ")";
  return "";
}

OutboundLink& RealNode::link(NodeId to) {
  auto& l = out_[to];
  if (!l) {
    l = std::make_shared<OutboundLink>(
        io_, self_, secret_, cfg_.route(self_, to), tls_between(self_, to) ? tls_client_.get() : nullptr,
        [this, to](std::size_t n) { count_sent(to, n); },
        [this, to](const std::string& why) {
          const auto it = out_.find(to);
          if (it != out_.end() && it->second->refused()) return fail(why, 1);  // retrying cannot fix a wrong secret
          if (!stopping_) log("link to node " + std::to_string(to) + ": " + why);
          out_.erase(to);  // a later send reconnects
        });
  }
  return *l;
}

void RealNode::send_frame(NodeId to, FrameType t, std::shared_ptr<const ByteSpans> body, int priority) {
  link(to).send(t, std::move(body), priority);
}

void RealNode::send(Message msg) {
  msg.from = self_;
  msg.sent_s = to_seconds(now());
  if (cfg_.trace_messages)
    log("send " + std::string(to_string(msg.kind)) + " r" + std::to_string(msg.round) + " -> " +
        std::to_string(msg.to));
  if (msg.channel == Channel::kBestEffort) return send_datagrams(msg);
  auto body = std::make_shared<const ByteSpans>(encode_message_spans(msg));
  send_frame(msg.to, FrameType::kMessage, std::move(body), msg.priority);
}

void RealNode::send_datagrams(const Message& m) {
  const Endpoint& ep = cfg_.route(self_, m.to);
  const udp::endpoint dst(asio::ip::make_address(ep.host), ep.udp_port);
  // Message numbers increase across restarts too (the receiver refuses a number it has seen: a replay).
  const auto unix_ns =
      std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(WallClock::now().time_since_epoch()).count());
  next_datagram_msg_ = std::max(next_datagram_msg_ + 1, unix_ns);
  for (auto& d : make_datagrams(self_, next_datagram_msg_, encode_message(m), secret_)) {
    auto dgram = std::make_shared<Bytes>(std::move(d));
    count_sent(m.to, dgram->size());
    udp_.async_send_to(asio::buffer(*dgram), dst, [dgram](const boost::system::error_code&, std::size_t) {});
  }
}

void RealNode::receive_datagram() {
  udp_.async_receive_from(asio::buffer(udp_buf_), udp_from_, [this](const boost::system::error_code& e, std::size_t n) {
    if (e) {
      if (e != asio::error::operation_aborted) receive_datagram();
      return;
    }
    try {
      if (std::optional<Message> m = datagrams_.add(udp_buf_.data(), n, Clock::now())) {
        if (!membership_.started())
          early_.push_back(std::move(*m));
        else
          asio::post(io_, [this, m = std::move(*m)] { actor_->on_message(m); });
      }
    } catch (const std::exception& ex) {
      ++counters_.rejected_datagrams;
      if (counters_.rejected_datagrams <= 5) log(std::string("rejected datagram: ") + ex.what());
    }
    receive_datagram();
  });
}

void RealNode::listen() {
  const Endpoint& me = cfg_.nodes.at(std::size_t(self_));
  const tcp::endpoint ep(asio::ip::make_address(me.host), me.tcp_port);
  if (cfg_.tls.links != TlsLinks::kAll) {  // when every link must be TLS, no plain port is open at all
    acceptor_.open(ep.protocol());
    acceptor_.set_option(tcp::acceptor::reuse_address(true));
    acceptor_.bind(ep);
    acceptor_.listen();
    accept(acceptor_, nullptr);
  }
  udp_.open(udp::v4());
  // Best-effort tensors arrive as bursts of fragments; the default ~200 KiB receive buffer drops a burst while the
  // node computes. The kernel caps this at net.core.rmem_max, so it is a request, not a guarantee.
  boost::system::error_code ignored;
  udp_.set_option(udp::socket::receive_buffer_size(8 << 20), ignored);
  udp_.bind(udp::endpoint(asio::ip::make_address(me.host), me.udp_port));
  if (tls_server_) {
    const tcp::endpoint tls_ep(asio::ip::make_address(me.host), me.tls_port);
    tls_acceptor_.open(tls_ep.protocol());
    tls_acceptor_.set_option(tcp::acceptor::reuse_address(true));
    tls_acceptor_.bind(tls_ep);
    tls_acceptor_.listen();
    accept(tls_acceptor_, tls_server_.get());
  }
  receive_datagram();
}

void RealNode::accept(tcp::acceptor& from, asio::ssl::context* tls) {
  from.async_accept([this, &from, tls](const boost::system::error_code& e, tcp::socket s) {
    if (e) {
      if (e != asio::error::operation_aborted) accept(from, tls);
      return;
    }
    // Bounded memory for strangers: at most kMaxPendingLinks links that have not
    // authenticated yet (each holds at most a pre-auth frame); the oldest goes first.
    std::size_t pending = 0;
    for (auto& l : in_) pending += l->authenticated() ? 0 : 1;
    for (auto it = in_.begin(); pending >= kMaxPendingLinks && it != in_.end(); ++it)
      if (!(*it)->authenticated()) {
        (*it)->close("too many unauthenticated connections; the oldest is dropped");
        --pending;
      }
    auto l = std::make_shared<InboundLink>(
        std::move(s), tls, secret_, int(job_.deployment().nodes.size()), frame_limit_,
        [this](NodeId peer, bool is_tls) { return admit(peer, is_tls); },
        [this](NodeId peer, Frame&& f) { on_frame(peer, std::move(f)); },
        [this](InboundLink* dead, const std::string& why) {
          if (!dead->fatal().empty() && !stopping_) {  // an authenticated peer broke the job's own limits
            fail("node " + job_.deployment().nodes[std::size_t(dead->peer())].name + " (node " +
                     std::to_string(dead->peer()) + ") " + dead->fatal(),
                 kExitJobFailed);
          } else if (why != "peer closed" && !stopping_) {
            // Logged, but rate-limited: a flood of bad peers must not flood the log.
            const auto n = ++counters_.rejected_links;
            if (n <= 10 || n % 1000 == 0)
              log("closed inbound link" + (dead->peer() >= 0 ? " from node " + std::to_string(dead->peer()) : "") +
                  ": " + why + (n > 10 ? " (" + std::to_string(n) + " so far)" : ""));
          }
          asio::post(io_, [this, dead] { in_.remove_if([dead](auto& p) { return p.get() == dead; }); });
        });
    in_.push_back(l);
    l->start();
    accept(from, tls);
  });
}

void RealNode::on_frame(NodeId peer, Frame&& f) {
  membership_.heard_from(peer);  // any frame shows it is alive
  switch (f.type) {
    case FrameType::kMessage: {
      Message m = std::move(f.message);
      if (cfg_.trace_messages)
        log("recv " + std::string(to_string(m.kind)) + " r" + std::to_string(m.round) + " <- " + std::to_string(peer) +
            (membership_.started() ? "" : " (before our GO: held until start)"));
      if (m.from != peer || m.to != self_) {
        log("node " + std::to_string(peer) + " sent a message with forged addressing; dropped");
        return;
      }
      if (!may_relay(job_.deployment(), peer, origin_of(m))) {
        log("node " + std::to_string(peer) + " relayed a message from node " + std::to_string(origin_of(m)) +
            ", which it may not relay for; dropped");
        return;
      }
      // A peer that got GO sooner may message us before our GO arrives: hold
      // such messages and deliver them once our actor has started.
      if (!membership_.started())
        early_.push_back(std::move(m));
      else
        asio::post(io_, [this, m = std::move(m)] { actor_->on_message(m); });
      return;
    }
    case FrameType::kReady: membership_.on_ready(peer, f.body); return;
    case FrameType::kGo: membership_.on_go(f.body); return;
    case FrameType::kShutdown:
      stopping_ = true;
      asio::post(io_, [this] { io_.stop(); });
      return;
    default: return;
  }
}

void RealNode::send_control(NodeId to, FrameType type, Bytes body) {
  send_frame(to, type,
             body.empty() ? std::make_shared<const ByteSpans>()
                          : std::make_shared<const ByteSpans>(ByteSpans::of(std::move(body))),
             100);
}

void RealNode::after(double seconds, std::function<void()> fn) { schedule(from_seconds(seconds), std::move(fn)); }

void RealNode::abandon(const std::string& why, int exit_code, const std::set<NodeId>& tell) {
  error_ = why;
  exit_code_ = exit_code;
  record("stopping: " + error_);
  for (NodeId id : tell) send_frame(id, FrameType::kShutdown, std::make_shared<const ByteSpans>(), 100);
  stopping_ = true;
  stop_when_flushed(Clock::now() + std::chrono::seconds(2));
}

void RealNode::start_actor(bool rejoin) {
  asio::post(io_, [this, rejoin] {
    if (rejoin)
      actor_->rejoin();
    else
      actor_->start();
  });
}

void RealNode::peer_down(NodeId peer) {
  asio::post(io_, [this, peer] { actor_->on_peer_down(peer); });
}

void RealNode::peer_up(NodeId peer) {
  asio::post(io_, [this, peer] { actor_->on_peer_up(peer); });
}

void RealNode::release_held() {
  for (auto& m : early_) asio::post(io_, [this, m = std::move(m)] { actor_->on_message(m); });
  early_.clear();
}

void RealNode::fail(const std::string& why, int exit_code) {
  if (!error_.empty()) return;
  error_ = why;
  exit_code_ = exit_code;
  record("stopping: " + why);
  stopping_ = true;
  asio::post(io_, [this] { io_.stop(); });
}

void RealNode::stop() {
  if (stopping_) return;
  stopping_ = true;
  // Nodes declared down are told too (a stalled one may be back and would otherwise wait to time out), but
  // not waited for: a dead one never accepts.
  for (const auto& n : job_.deployment().nodes)
    if (n.id != self_) send_frame(n.id, FrameType::kShutdown, std::make_shared<const ByteSpans>(), 100);
  stop_when_flushed(Clock::now() + std::chrono::seconds(5));
}

// Leaves once every queued frame (the SHUTDOWNs) to a live peer is written, or
// at the deadline if a peer is gone.
void RealNode::stop_when_flushed(Clock::time_point deadline) {
  bool idle = true;
  for (auto& [id, l] : out_) idle = idle && (l->idle() || membership_.gone(id));
  if (idle || Clock::now() > deadline) return io_.stop();
  schedule(from_seconds(0.01), [this, deadline] { stop_when_flushed(deadline); });
}

void RealNode::run(Actor& actor, bool restore) {
  actor_ = &actor;
  // SIGTERM (the launcher ending the job, or our parent gone) and Ctrl-C: leave
  // the event loop so the node report is still written.
  asio::signal_set signals(io_, SIGTERM);
  if (!signal_ignored(SIGINT)) signals.add(SIGINT);  // (a launched node leaves Ctrl-C to its launcher)
  signals.async_wait([this](const boost::system::error_code& e, int sig) {
    if (!e && !stopping_) fail(std::string("stopped by ") + (sig == SIGTERM ? "SIGTERM" : "SIGINT"), kExitStopped);
  });
  listen();
  membership_.begin(restore);
  // An actor that throws (a peer's message its role cannot take) ends this node
  // with the cause, its report still written, instead of taking the process down.
  try {
    io_.run();
  } catch (const std::exception& e) {
    fail(std::string("cannot go on: ") + e.what(), kExitJobFailed);
  }
}

}  // namespace geotrain::real
