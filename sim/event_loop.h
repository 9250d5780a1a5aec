// The clock and event queue a simulation runs on. The packet-level model runs on
// ns-3's Simulator, which is one per process (its TCP stack schedules there
// itself); the flow model runs on a queue of its own, so flow-model runs can
// share a process, several at once (the public API's runs, a notebook's sweep).
// Both keep ns-3's order and count: events by time, those of one time in the
// order they were scheduled; a cancelled event stays queued and is counted when
// its time comes (it does nothing), a removed one is gone; a stop at a time is
// an event too. So a flow-model run gives the same results, event count
// included, on either queue.
#pragma once
#include <ns3/core-module.h>

#include <cstdint>
#include <functional>
#include <memory>

#include "core/base/time.h"

namespace geotrain::sim {

// An event scheduled on a loop: what cancel() and remove() take. Default: none.
struct EventHandle {
  ns3::EventId ns3;       // on ns-3's loop
  std::uint64_t uid = 0;  // on an own loop (0: none)
};

class EventLoop {
 public:
  virtual ~EventLoop() = default;
  virtual TimeNs now() const = 0;
  // Runs `fn` `delay` (>= 0) nanoseconds from now.
  virtual EventHandle schedule(TimeNs delay, std::function<void()> fn) = 0;
  // The event does nothing when its time comes (still counted, as ns-3's Cancel).
  virtual void cancel(const EventHandle& e) = 0;
  // The event is taken out of the queue (not counted, as ns-3's Remove).
  virtual void remove(const EventHandle& e) = 0;
  // Is the event still to run (not run, cancelled or removed)?
  virtual bool pending(const EventHandle& e) const = 0;
  // Runs events until none is left or stop() is called (after the event calling it).
  virtual void run() = 0;
  virtual void stop() = 0;
  // An event at time `at` that stops the run.
  virtual void stop_at(TimeNs at) = 0;
  // Events run so far (cancelled ones included).
  virtual std::uint64_t events() const = 0;
};

// ns-3's process-global Simulator (the caller destroys it after the run: Simulator::Destroy()).
std::unique_ptr<EventLoop> make_ns3_event_loop();
// A queue of its own, independent of every other loop in the process.
std::unique_ptr<EventLoop> make_own_event_loop();

}  // namespace geotrain::sim
