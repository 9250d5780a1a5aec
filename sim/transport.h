// What a simulated node sends through: the packet-level ns-3 network
// (SimTransport) or the flow-level model (FlowNetwork), chosen per scenario
// by network.model. Either delivers each message to its receiver's actor in
// simulated time, through ns-3's one event queue.
#pragma once
#include <string>

#include "core/payload/message.h"

namespace geotrain::sim {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual void send(Message msg) = 0;
  // The reliable messages still on their way, one line per connection (from,
  // to, bytes not yet handed to the network, bytes awaited by the receiver):
  // what a run that ran out of events was waiting for. Empty when none.
  virtual std::string unfinished() const { return {}; }
};

}  // namespace geotrain::sim
