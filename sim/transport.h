// What a simulated node sends through: the packet-level ns-3 network
// (SimTransport) or the flow-level model (FlowNetwork), chosen per scenario
// by network.model. Either delivers each message to its receiver's actor in
// simulated time, through ns-3's one event queue.
#pragma once
#include "core/message.h"

namespace geotrain::sim {

class Transport {
 public:
  virtual ~Transport() = default;
  virtual void send(Message msg) = 0;
};

}  // namespace geotrain::sim
