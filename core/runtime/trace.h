// Optional observation hook: roles report protocol milestones (a worker's push
// acknowledged, the global server applying a round, ...) to a Tracer so tests
// and analyses can check ordering without reaching into role internals.
#pragma once
#include <cstdint>

#include "core/base/time.h"
#include "core/payload/message.h"

namespace geotrain {

enum class TraceKind : std::uint8_t {
  kStepDone,       // worker finished computing round r's step
  kWorkerAcked,    // worker received the push ack for round r
  kLocalPushed,    // local server pushed its DC's aggregate of round r upstream
  kGlobalApplied,  // global server applied round r
  kWorkerPushed,   // worker pushed an update made for round r
};

class Tracer {
 public:
  virtual ~Tracer() = default;
  virtual void record(TimeNs t, NodeId node, TraceKind kind, std::int64_t round) = 0;
};

}  // namespace geotrain
