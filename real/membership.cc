#include "real/membership.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <random>
#include <sstream>

#include "core/base/atomic_file.h"
#include "core/base/bytes.h"

namespace geotrain::real {
namespace {

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

Membership::Membership(MembershipHost& host, const RealConfig& cfg, const Deployment& dep, NodeId self)
    : host_(host),
      cfg_(cfg),
      dep_(dep),
      self_(self),
      services_(services_of(dep, self)),
      epoch_(WallClock::now()),
      watchdog_(cfg.failure_timeout_s) {
  nonce_ = std::random_device{}() | (std::uint64_t(std::random_device{}()) << 32);  // not the job's seeded rng
}

std::int64_t Membership::epoch_unix_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(epoch_.time_since_epoch()).count();
}

void Membership::begin(bool restore) {
  if (restore) {  // a restarted global server: the job is running, resume it
    std::ifstream in(cfg_.epoch_file());
    std::int64_t ns = 0;
    in >> ns;
    epoch_ = WallClock::time_point(std::chrono::duration_cast<WallClock::duration>(std::chrono::nanoseconds(ns)));
    host_.record("restarted; resuming from the checkpoint");
    start(true);
  } else if (self_ != dep_.global_server) {
    send_ready();
    const double limit = 2 * cfg_.startup_timeout_s;  // the global server decides first, at its own timeout
    host_.after(limit, [this, limit] {
      if (!started_)
        host_.fail("no start from the global server within " + secs(limit) +
                       ": it is unreachable, or the job could not start (the global server's log says why)",
                   kExitParentLost);
    });
  } else if (dep_.nodes.size() == 1) {
    start(false);
  } else {
    host_.after(cfg_.startup_timeout_s, [this] { on_startup_timeout(); });
  }
}

void Membership::heard_from(NodeId peer) {
  const auto it = last_heard_.find(peer);
  if (it == last_heard_.end()) return;  // not one we watch
  it->second = Clock::now();
  if (down_.erase(peer)) {
    host_.record("node " + name(peer) + " is back");
    if (started_ && is_child(peer)) host_.peer_up(peer);  // it may be behind: catch it up
  }
}

void Membership::on_ready(NodeId peer, const Bytes& body) {
  if (self_ != dep_.global_server) return;
  // A node repeats READY until its GO; the nonce tells a repeat from a new process (a restart).
  const std::uint64_t nonce = body.size() == 8 ? load_raw<std::uint64_t>(body.data()) : 0;
  const auto known = incarnation_.find(peer);
  const bool repeat = known != incarnation_.end() && known->second == nonce;
  incarnation_[peer] = nonce;
  if (started_) {
    if (repeat) return;
    const NodeSpec& n = dep_.nodes[std::size_t(peer)];
    if (n.role == Role::kGlobalServer && cfg_.checkpoint_every == 0 && !absent_.count(peer))
      return host_.fail("node " + n.name +
                            " (a shard of the model) was restarted, but it has no checkpoint to resume from (launch "
                            "--checkpoint-every N keeps one); the job cannot go on without its shard",
                        kExitJobFailed);
    host_.record("node " + n.name + " joined the running job");
    watchdog_.fault();
    send_go(peer, true, {});
    return;
  }
  if (!ready_.insert(peer).second) return;
  host_.log("node " + name(peer) + " ready (" + std::to_string(ready_.size()) + "/" +
            std::to_string(dep_.nodes.size() - 1) + ")");
  if (ready_.size() + 1 == dep_.nodes.size()) begin_job({});
}

void Membership::send_go(NodeId to, bool late, const std::vector<NodeId>& absent) {
  Bytes b;
  append_raw<std::int64_t>(b, epoch_unix_ns());
  b.push_back(late ? 1 : 0);
  for (NodeId a : absent) append_raw<std::int32_t>(b, a);
  host_.send_control(to, FrameType::kGo, std::move(b));
}

void Membership::begin_job(const std::vector<NodeId>& absent) {
  epoch_ = WallClock::now();
  for (NodeId id : ready_) send_go(id, false, absent);
  host_.log("all " + std::to_string(ready_.size()) + " nodes ready; starting the job");
  for (NodeId a : absent)
    host_.record("node " + name(a) + " did not join within the start-up timeout (" + secs(cfg_.startup_timeout_s) +
                 "); the job starts without it (it may still join)");
  absent_ = std::set<NodeId>(absent.begin(), absent.end());
  start(false);
}

void Membership::on_startup_timeout() {
  if (started_ || host_.stopping()) return;
  std::vector<NodeId> missing;
  std::string servers;
  std::size_t workers_ready = 0;
  for (const auto& n : dep_.nodes) {
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
  for (NodeId id : missing) names += (names.empty() ? "" : ", ") + name(id) + " (node " + std::to_string(id) + ")";
  // The nodes that did join leave at once, each with its report.
  host_.abandon(
      "start-up timed out after " + secs(cfg_.startup_timeout_s) + ": " + names + " did not join" +
          (servers.empty() ? std::string(", and no worker did") : "; a job cannot start without its servers") +
          " (each node's log says why it did not start)",
      kExitJobFailed, ready_);
}

void Membership::on_go(const Bytes& body) {
  if (started_ || body.size() < 9 || (body.size() - 9) % 4 != 0) return;
  epoch_ = WallClock::time_point(
      std::chrono::duration_cast<WallClock::duration>(std::chrono::nanoseconds(load_raw<std::int64_t>(body.data()))));
  const bool late = body[8] == 1;
  for (std::size_t at = 9; at < body.size(); at += 4) absent_.insert(load_raw<std::int32_t>(body.data() + at));
  host_.log(late ? "joining the running job" : "start");
  start(late);
}

// READY, repeated every heartbeat until GO arrives: a global server restarted
// during start-up (or reached only now) still hears from every node.
void Membership::send_ready() {
  if (started_ || host_.stopping()) return;
  Bytes b;
  append_raw<std::uint64_t>(b, nonce_);
  host_.send_control(dep_.global_server, FrameType::kReady, std::move(b));
  host_.after(cfg_.heartbeat_s, [this] { send_ready(); });
}

void Membership::start(bool rejoin) {
  started_ = true;
  const auto now = Clock::now();
  for (NodeId c : dep_.nodes[std::size_t(self_)].children) last_heard_[c] = now;
  for (NodeId c : services_) last_heard_[c] = now;
  if (self_ == dep_.global_server) {
    std::filesystem::create_directories(cfg_.out);
    write_file_atomically(cfg_.epoch_file(), std::to_string(epoch_unix_ns()) + "\n");
  }
  heartbeat();
  host_.start_actor(rejoin);
  // Children that never joined are down from the start: the round does not wait a failure timeout for them.
  for (NodeId c : dep_.nodes[std::size_t(self_)].children)
    if (absent_.count(c)) {
      down_.insert(c);
      host_.record("node " + name(c) + " never joined; the rounds proceed without it");
      host_.peer_down(c);
    }
  host_.release_held();
}

void Membership::heartbeat() {
  if (host_.stopping()) return;
  const NodeId parent = dep_.nodes[std::size_t(self_)].parent;
  if (parent >= 0) host_.send_control(parent, FrameType::kHeartbeat, {});
  if (parent < 0 &&
      self_ != dep_.global_server)  // a service (state server, shard server): the global server watches it
    host_.send_control(dep_.global_server, FrameType::kHeartbeat, {});
  if (parent >= 0 && parent == dep_.global_server)  // MultiGPS: every shard server is a parent
    for (NodeId g : dep_.global_servers)
      if (g != parent) host_.send_control(g, FrameType::kHeartbeat, {});
  // A parent we cannot even connect to is gone. The global server cannot come
  // back without a checkpoint, so its children give up after twice the failure
  // timeout; any other parent may be restarted, so they wait ten times as long.
  // Counted in heartbeats that found nothing written to the parent since the
  // last one, not in wall time: a node that was itself stalled has not been trying.
  if (parent >= 0 && started_) {
    parent_misses_ = parent_written_ ? 0 : parent_misses_ + 1;
    parent_written_ = false;
    const bool gs = parent == dep_.global_server;
    const double limit = cfg_.failure_timeout_s * (gs && cfg_.checkpoint_every == 0 ? 2 : 10);
    const double silent = parent_misses_ * cfg_.heartbeat_s;
    if (silent > limit)
      return host_.fail("cannot reach " + name(parent) + " for " + secs(silent) + ": it is gone" +
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
    host_.record("this node was stalled for " + secs(std::chrono::duration<double>(tick - *last_tick_).count()) +
                 "; its children's silence is not counted");
  }
  last_tick_ = tick;
  for (auto& [child, t] : last_heard_) {
    if (down_.count(child) || Clock::now() - t < silent_limit) continue;
    down_.insert(child);
    watchdog_.fault();
    host_.record("node " + name(child) + " declared down (silent for " + secs(cfg_.failure_timeout_s) +
                 "); the round proceeds without it");
    if (is_child(child)) host_.peer_down(child);  // the round goes on without it
  }
  // A service the job cannot do without (the state server, a shard of the model) may be restarted: it is
  // waited for as long as a restartable parent is, then the job ends with an error rather than hang.
  for (NodeId sv : services_) {
    if (!down_.count(sv)) continue;
    const double gone = std::chrono::duration<double>(Clock::now() - last_heard_[sv]).count();
    if (gone > 10 * cfg_.failure_timeout_s)
      return host_.fail("node " + name(sv) + " has been unreachable for " + secs(gone) +
                            ": the job cannot go on without it (a restarted one is taken back within " +
                            secs(10 * cfg_.failure_timeout_s) + ")",
                        kExitJobFailed);
  }
  if (rounds_probe_ && started_)
    if (const std::string why = watchdog_.check(rounds_probe_(), Clock::now()); !why.empty())
      return host_.fail(why, kExitJobFailed);
  host_.after(cfg_.heartbeat_s, [this] { heartbeat(); });
}

bool Membership::is_child(NodeId n) const {
  const auto& children = dep_.nodes[std::size_t(self_)].children;
  return std::find(children.begin(), children.end(), n) != children.end();
}

}  // namespace geotrain::real
