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

#include "core/atomic_file.h"
#include "core/bytes.h"
#include "core/wire.h"
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

// The global server's services: the nodes without a parent besides itself.
std::vector<NodeId> services_of(const Deployment& dep, NodeId self) {
  std::vector<NodeId> out;
  if (self != dep.global_server) return out;
  for (const auto& n : dep.nodes)
    if (n.parent < 0 && n.id != self) out.push_back(n.id);
  return out;
}

// "10 s", "0.5 s": durations in messages, without to_string's six decimals.
std::string secs(double s) {
  std::ostringstream o;
  o << std::setprecision(3) << s << " s";
  return o.str();
}

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
      watchdog_(cfg.failure_timeout_s),
      datagrams_(secret_, self),
      frame_limit_(std::size_t(frame_limit(job, cfg.max_frame_bytes))),
      services_(services_of(job.deployment(), self)) {
  if (cfg.tls.links != TlsLinks::kOff) {
    tls_server_ = tls_server_context(cfg.tls);
    tls_client_ = tls_client_context(cfg.tls);
  }
  std::seed_seq seq{job.scenario().seed, std::uint64_t(self), std::uint64_t(0x6765747261696eULL)};
  rng_.seed(seq);
  nonce_ = std::random_device{}() | (std::uint64_t(std::random_device{}()) << 32);  // not the job's seeded rng
  epoch_ = WallClock::now();
}

RealNode::~RealNode() {
  for (auto& [id, l] : out_) l->close();
  for (auto& l : in_) l->close("node shutting down");
}

void RealNode::log(const std::string& line) const {
  std::fprintf(stderr, "[%s] %s\n", job_.deployment().nodes[self_].name.c_str(), line.c_str());
}

TimeNs RealNode::now() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(WallClock::now() - epoch_).count();
}

std::int64_t RealNode::epoch_unix_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(epoch_.time_since_epoch()).count();
}

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
  if (to == nodes[self_].parent) parent_written_ = true;
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
          if (it != out_.end() && it->second->refused()) return fail(why);  // retrying cannot fix a wrong secret
          if (!stopping_) log("link to node " + std::to_string(to) + ": " + why);
          out_.erase(to);  // a later send reconnects
        });
  }
  return *l;
}

void RealNode::send_frame(NodeId to, FrameType t, std::shared_ptr<const ByteSpans> body, int priority) {
  link(to).send(t, std::move(body), priority);
}

namespace {
// GEOTRAIN_TRACE=1 logs every message a node sends and receives.
const bool kTraceMessages = std::getenv("GEOTRAIN_TRACE") != nullptr;
}  // namespace

void RealNode::send(Message msg) {
  msg.from = self_;
  msg.sent_s = to_seconds(now());
  if (kTraceMessages)
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
        if (!started_)
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
  if (last_heard_.count(peer)) {  // one of our children: any frame shows it is alive
    last_heard_[peer] = Clock::now();
    if (down_.erase(peer)) {
      record("node " + job_.deployment().nodes[peer].name + " is back");
      if (started_ && is_child(peer))  // it may be behind: catch it up
        asio::post(io_, [this, peer] { actor_->on_peer_up(peer); });
    }
  }
  switch (f.type) {
    case FrameType::kMessage: {
      Message m = std::move(f.message);
      if (kTraceMessages)
        log("recv " + std::string(to_string(m.kind)) + " r" + std::to_string(m.round) + " <- " + std::to_string(peer) +
            (started_ ? "" : " (before our GO: held until start)"));
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
      if (!started_)
        early_.push_back(std::move(m));
      else
        asio::post(io_, [this, m = std::move(m)] { actor_->on_message(m); });
      return;
    }
    case FrameType::kReady: {
      if (self_ != job_.deployment().global_server) return;
      // A node repeats READY until its GO; the nonce tells a repeat from a new process (a restart).
      const std::uint64_t nonce = f.body.size() == 8 ? load_raw<std::uint64_t>(f.body.data()) : 0;
      const auto known = incarnation_.find(peer);
      const bool repeat = known != incarnation_.end() && known->second == nonce;
      incarnation_[peer] = nonce;
      if (started_) {
        if (repeat) return;
        const NodeSpec& n = job_.deployment().nodes[peer];
        if (n.role == Role::kGlobalServer && cfg_.checkpoint_every == 0 && !absent_.count(peer))
          return fail("node " + n.name +
                          " (a shard of the model) was restarted, but it has no checkpoint to resume from (launch "
                          "--checkpoint-every N keeps one); the job cannot go on without its shard",
                      kExitJobFailed);
        record("node " + n.name + " joined the running job");
        watchdog_.fault();
        send_go(peer, true, {});
        return;
      }
      if (!ready_.insert(peer).second) return;
      log("node " + job_.deployment().nodes[peer].name + " ready (" + std::to_string(ready_.size()) + "/" +
          std::to_string(job_.deployment().nodes.size() - 1) + ")");
      if (ready_.size() + 1 == job_.deployment().nodes.size()) begin_job({});
      return;
    }
    case FrameType::kGo:
      if (!started_) on_go(f.body);
      return;
    case FrameType::kShutdown:
      stopping_ = true;
      asio::post(io_, [this] { io_.stop(); });
      return;
    default: return;
  }
}

void RealNode::send_go(NodeId to, bool late, const std::vector<NodeId>& absent) {
  Bytes b;
  append_raw<std::int64_t>(b, epoch_unix_ns());
  b.push_back(late ? 1 : 0);
  for (NodeId a : absent) append_raw<std::int32_t>(b, a);
  send_frame(to, FrameType::kGo, std::make_shared<const ByteSpans>(ByteSpans::of(std::move(b))), 100);
}

void RealNode::begin_job(const std::vector<NodeId>& absent) {
  epoch_ = WallClock::now();
  for (NodeId id : ready_) send_go(id, false, absent);
  log("all " + std::to_string(ready_.size()) + " nodes ready; starting the job");
  for (NodeId a : absent)
    record("node " + job_.deployment().nodes[a].name + " did not join within the start-up timeout (" +
           secs(cfg_.startup_timeout_s) + "); the job starts without it (it may still join)");
  absent_ = std::set<NodeId>(absent.begin(), absent.end());
  start_actor(false);
}

void RealNode::on_startup_timeout() {
  if (started_ || stopping_) return;
  std::vector<NodeId> missing;
  std::string servers;
  std::size_t workers_ready = 0;
  for (const auto& n : job_.deployment().nodes) {
    if (n.id == self_) continue;
    if (ready_.count(n.id)) {
      workers_ready += n.role == Role::kWorker ? 1 : 0;
      continue;
    }
    missing.push_back(n.id);
    if (n.role != Role::kWorker)
      servers += (servers.empty() ? "" : ", ") + n.name + " (node " + std::to_string(n.id) + ")";
  }
  if (servers.empty() && workers_ready > 0) return begin_job(missing);
  std::string names;
  for (NodeId id : missing)
    names += (names.empty() ? "" : ", ") + job_.deployment().nodes[id].name + " (node " + std::to_string(id) + ")";
  error_ = "start-up timed out after " + secs(cfg_.startup_timeout_s) + ": " + names + " did not join" +
           (servers.empty() ? std::string(", and no worker did") : "; a job cannot start without its servers") +
           " (each node's log says why it did not start)";
  exit_code_ = kExitJobFailed;
  record("stopping: " + error_);
  // The nodes that did join leave at once, each with its report.
  for (NodeId id : ready_) send_frame(id, FrameType::kShutdown, std::make_shared<const ByteSpans>(), 100);
  stopping_ = true;
  stop_when_flushed(Clock::now() + std::chrono::seconds(2));
}

void RealNode::on_go(const Bytes& body) {
  if (body.size() < 9 || (body.size() - 9) % 4 != 0) return;
  epoch_ = WallClock::time_point(
      std::chrono::duration_cast<WallClock::duration>(std::chrono::nanoseconds(load_raw<std::int64_t>(body.data()))));
  const bool late = body[8] == 1;
  for (std::size_t at = 9; at < body.size(); at += 4) absent_.insert(load_raw<std::int32_t>(body.data() + at));
  log(late ? "joining the running job" : "start");
  start_actor(late);
}

// READY, repeated every heartbeat until GO arrives: a global server restarted
// during start-up (or reached only now) still hears from every node.
void RealNode::send_ready() {
  if (started_ || stopping_) return;
  Bytes b;
  append_raw<std::uint64_t>(b, nonce_);
  send_frame(job_.deployment().global_server, FrameType::kReady,
             std::make_shared<const ByteSpans>(ByteSpans::of(std::move(b))), 100);
  schedule(from_seconds(cfg_.heartbeat_s), [this] { send_ready(); });
}

void RealNode::start_actor(bool rejoin) {
  started_ = true;
  const auto now = Clock::now();
  for (NodeId c : job_.deployment().nodes[self_].children) last_heard_[c] = now;
  for (NodeId c : services_) last_heard_[c] = now;
  if (self_ == job_.deployment().global_server) {
    std::filesystem::create_directories(cfg_.out);
    write_file_atomically(cfg_.epoch_file(), std::to_string(epoch_unix_ns()) + "\n");
  }
  heartbeat();
  asio::post(io_, [this, rejoin] {
    if (rejoin)
      actor_->rejoin();
    else
      actor_->start();
  });
  // Children that never joined are down from the start: the round does not wait a failure timeout for them.
  for (NodeId c : job_.deployment().nodes[self_].children)
    if (absent_.count(c)) {
      down_.insert(c);
      record("node " + job_.deployment().nodes[c].name + " never joined; the rounds proceed without it");
      asio::post(io_, [this, c] { actor_->on_peer_down(c); });
    }
  for (auto& m : early_) asio::post(io_, [this, m = std::move(m)] { actor_->on_message(m); });
  early_.clear();
}

void RealNode::heartbeat() {
  if (stopping_) return;
  const NodeId parent = job_.deployment().nodes[self_].parent;
  if (parent >= 0) send_frame(parent, FrameType::kHeartbeat, std::make_shared<const ByteSpans>(), 100);
  const Deployment& dep = job_.deployment();
  if (parent < 0 && self_ != dep.global_server)  // a service (state server, shard server): the global server watches it
    send_frame(dep.global_server, FrameType::kHeartbeat, std::make_shared<const ByteSpans>(), 100);
  if (parent >= 0 && parent == job_.deployment().global_server)  // MultiGPS: every shard server is a parent
    for (NodeId g : job_.deployment().global_servers)
      if (g != parent) send_frame(g, FrameType::kHeartbeat, std::make_shared<const ByteSpans>(), 100);
  // A parent we cannot even connect to is gone. The global server cannot come
  // back without a checkpoint, so its children give up after twice the failure
  // timeout; any other parent may be restarted, so they wait ten times as long.
  // Counted in heartbeats that found nothing written to the parent since the
  // last one, not in wall time: a node that was itself stalled has not been trying.
  if (parent >= 0 && started_) {
    parent_misses_ = parent_written_ ? 0 : parent_misses_ + 1;
    parent_written_ = false;
    const bool gs = parent == job_.deployment().global_server;
    const double limit = cfg_.failure_timeout_s * (gs && cfg_.checkpoint_every == 0 ? 2 : 10);
    const double silent = parent_misses_ * cfg_.heartbeat_s;
    if (silent > limit)
      return fail("cannot reach " + job_.deployment().nodes[parent].name + " for " + secs(silent) + ": it is gone" +
                      (gs && cfg_.checkpoint_every == 0 ? " and has no checkpoint to resume from" : ""),
                  kExitParentLost);
  }
  const auto silent_limit = std::chrono::duration<double>(cfg_.failure_timeout_s);
  // A tick far later than scheduled means this node was itself stalled (SIGSTOP, a swapped-out machine):
  // its children's frames are still queued unread, so their silence says nothing. Start counting afresh.
  const auto tick = Clock::now();
  if (last_tick_ &&
      tick - *last_tick_ > std::chrono::duration<double>(std::max(2 * cfg_.heartbeat_s, cfg_.failure_timeout_s / 2))) {
    for (auto& [child, t] : last_heard_) t = tick;
    watchdog_.restart_clock(tick);  // nor are the rounds it could not run
    record("this node was stalled for " + secs(std::chrono::duration<double>(tick - *last_tick_).count()) +
           "; its children's silence is not counted");
  }
  last_tick_ = tick;
  for (auto& [child, t] : last_heard_) {
    if (down_.count(child) || Clock::now() - t < silent_limit) continue;
    down_.insert(child);
    watchdog_.fault();
    record("node " + job_.deployment().nodes[child].name + " declared down (silent for " +
           secs(cfg_.failure_timeout_s) + "); the round proceeds without it");
    if (is_child(child))  // the round goes on without it
      asio::post(io_, [this, child = child] { actor_->on_peer_down(child); });
  }
  // A service the job cannot do without (the state server, a shard of the model) may be restarted: it is
  // waited for as long as a restartable parent is, then the job ends with an error rather than hang.
  for (NodeId sv : services_) {
    if (!down_.count(sv)) continue;
    const double gone = std::chrono::duration<double>(Clock::now() - last_heard_[sv]).count();
    if (gone > 10 * cfg_.failure_timeout_s)
      return fail("node " + job_.deployment().nodes[sv].name + " has been unreachable for " + secs(gone) +
                      ": the job cannot go on without it (a restarted one is taken back within " +
                      secs(10 * cfg_.failure_timeout_s) + ")",
                  kExitJobFailed);
  }
  if (rounds_probe_ && started_)
    if (const std::string why = watchdog_.check(rounds_probe_(), Clock::now()); !why.empty())
      return fail(why, kExitJobFailed);
  schedule(from_seconds(cfg_.heartbeat_s), [this] { heartbeat(); });
}

bool RealNode::is_child(NodeId n) const {
  const auto& children = job_.deployment().nodes[self_].children;
  return std::find(children.begin(), children.end(), n) != children.end();
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
  for (auto& [id, l] : out_) idle = idle && (l->idle() || down_.count(id) || absent_.count(id));
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
  if (restore) {  // a restarted global server: the job is running, resume it
    std::ifstream in(cfg_.epoch_file());
    std::int64_t ns = 0;
    in >> ns;
    epoch_ = WallClock::time_point(std::chrono::duration_cast<WallClock::duration>(std::chrono::nanoseconds(ns)));
    record("restarted; resuming from the checkpoint");
    start_actor(true);
  } else if (self_ != job_.deployment().global_server) {
    send_ready();
    const double limit = 2 * cfg_.startup_timeout_s;  // the global server decides first, at its own timeout
    schedule(from_seconds(limit), [this, limit] {
      if (!started_)
        fail("no start from the global server within " + secs(limit) +
                 ": it is unreachable, or the job could not start (the global server's log says why)",
             kExitParentLost);
    });
  } else if (job_.deployment().nodes.size() == 1) {
    start_actor(false);
  } else {
    schedule(from_seconds(cfg_.startup_timeout_s), [this] { on_startup_timeout(); });
  }
  // An actor that throws (a peer's message its role cannot take) ends this node
  // with the cause, its report still written, instead of taking the process down.
  try {
    io_.run();
  } catch (const std::exception& e) {
    fail(std::string("cannot go on: ") + e.what(), kExitJobFailed);
  }
}

}  // namespace geotrain::real
