// A link's transmit queue: drop-tail in bytes, with a limit that may change at
// any time (a bandwidth trace resizes it to the new bandwidth-delay product).
// A packet that does not fit is dropped and counted here, so a drop is always
// charged to the device (and so the link) it happened at.
//
// ns-3 stops a device's traffic-control queue when its queue could not take
// one more MTU, or has dropped a packet, and then drops at the traffic-control
// layer, where the device is unknown, whatever fits. This queue tells ns-3 it
// is never full (its base class's maximum is 4 GiB) and drops without telling
// it: plain drop-tail, each packet judged by its own size.
#pragma once
#include <ns3/network-module.h>

#include <cstdint>
#include <limits>

namespace geotrain::sim {

class LinkQueue : public ns3::Queue<ns3::Packet> {
 public:
  static constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint32_t>::max();
  static ns3::TypeId GetTypeId();
  LinkQueue();

  // Bytes the queue may hold; a smaller limit than what is queued now drops
  // arrivals until it has drained below it (nothing queued is thrown away).
  void set_limit_bytes(std::uint64_t bytes) { limit_ = bytes; }
  std::uint64_t limit_bytes() const { return limit_; }
  std::uint64_t dropped_packets() const { return dropped_; }

  bool Enqueue(ns3::Ptr<ns3::Packet> p) override;
  ns3::Ptr<ns3::Packet> Dequeue() override;
  ns3::Ptr<ns3::Packet> Remove() override;
  ns3::Ptr<const ns3::Packet> Peek() const override;

 private:
  std::uint64_t limit_ = kUnlimited;
  std::uint64_t dropped_ = 0;
};

}  // namespace geotrain::sim
