#include "sim/link_queue.h"

namespace geotrain::sim {

ns3::TypeId LinkQueue::GetTypeId() {
  static ns3::TypeId tid =
      ns3::TypeId("geotrain::LinkQueue<Packet>").SetParent<ns3::Queue<ns3::Packet>>().AddConstructor<LinkQueue>();
  return tid;
}

LinkQueue::LinkQueue() { SetMaxSize(ns3::QueueSize(ns3::QueueSizeUnit::BYTES, std::uint32_t(kUnlimited))); }

bool LinkQueue::Enqueue(ns3::Ptr<ns3::Packet> p) {
  if (std::uint64_t(GetNBytes()) + p->GetSize() > limit_) {
    ++dropped_;  // not DropBeforeEnqueue: that would stop the device's traffic-control queue
    return false;
  }
  return DoEnqueue(GetContainer().end(), p);
}

ns3::Ptr<ns3::Packet> LinkQueue::Dequeue() { return DoDequeue(GetContainer().begin()); }
ns3::Ptr<ns3::Packet> LinkQueue::Remove() { return DoRemove(GetContainer().begin()); }
ns3::Ptr<const ns3::Packet> LinkQueue::Peek() const { return DoPeek(GetContainer().begin()); }

}  // namespace geotrain::sim
