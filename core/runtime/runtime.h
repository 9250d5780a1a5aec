// The runtime seam: everything a role may ask of the world. One Runtime per
// node. Implementations: sim/ (ns-3, simulated time) and real/ (sockets, wall
// clock). Roles never see which one drives them.
//
// Contract for implementations:
//  - Callbacks for one node (timers, compute completions, message deliveries)
//    run one at a time, never re-entrantly: send() never delivers synchronously.
//  - Messages between one ordered pair of nodes on the reliable channel arrive
//    in send order (per priority class, a message queued earlier with the same
//    priority is delivered earlier); best-effort messages may be lost.
//  - compute() runs `work` (the real maths) and calls `done` once the modelled
//    duration of `cost` on this node has elapsed (simulation: simulated time;
//    real mode: at least the real time it took).
#pragma once
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "core/base/time.h"
#include "core/payload/message.h"

namespace geotrain {

using TimerId = std::uint64_t;

// What a training step costs; the runtime's compute model turns it into time.
struct ComputeCost {
  double flops = 0;
  int samples = 0;
};

class Runtime {
 public:
  virtual ~Runtime() = default;
  virtual NodeId self() const = 0;
  // Time since the job started. Every node of a job counts from the same start
  // (real mode: the global server's clock at the start barrier), so a time one
  // node stamps means the same on another.
  virtual TimeNs now() const = 0;
  virtual TimerId schedule(TimeNs delay, std::function<void()> fn) = 0;
  virtual void cancel(TimerId id) = 0;
  virtual void send(Message msg) = 0;
  virtual void compute(ComputeCost cost, std::function<void()> work, std::function<void()> done) = 0;
  // Per-node deterministic random stream (seeded from the scenario seed and the node id).
  virtual std::mt19937_64& rng() = 0;
  // The job is over (the core decides when: see RunMonitor); the runtime winds down.
  virtual void stop() = 0;
};

// A role: an event-driven actor. start() is called once when the run begins;
// rejoin() instead when the node (re)joins a job already running (a restarted
// process): it must catch up with the job's state rather than start afresh.
class Actor {
 public:
  virtual ~Actor() = default;
  virtual void start() = 0;
  virtual void rejoin() { start(); }
  virtual void on_message(const Message& msg) = 0;
  // The runtime's failure detector lost contact with `peer` (one of this
  // node's children). Policies that allow it proceed without the peer.
  virtual void on_peer_down(NodeId peer) { (void)peer; }
  // A child reported down is heard from again (it was stalled, cut off, or
  // restarted): it may be behind the job, so servers tell it where the job is.
  virtual void on_peer_up(NodeId peer) { (void)peer; }
  // The run is over at `now`: last words (the global server's final evaluation).
  virtual void finish(TimeNs now) { (void)now; }
  // What this role did, for the run's results (core/job/role_stats.h assembles
  // every node's report the same way in both runtimes).
  virtual nlohmann::json report(TimeNs now) const {
    (void)now;
    return nlohmann::json::object();
  }
};

}  // namespace geotrain
