#include "sim/capped_cubic.h"

namespace geotrain::sim {

ns3::TypeId CappedCubic::GetTypeId() {
  static ns3::TypeId tid = ns3::TypeId("geotrain::sim::CappedCubic")
                               .SetParent<ns3::TcpCubic>()
                               .SetGroupName("Internet")
                               .AddConstructor<CappedCubic>();
  return tid;
}

void CappedCubic::IncreaseWindow(ns3::Ptr<ns3::TcpSocketState> tcb, std::uint32_t segmentsAcked) {
  // Below the cap before the increase (at most a few segments), so it cannot wrap.
  if (tcb->m_cWnd.Get() > kMaxCwndBytes) tcb->m_cWnd = kMaxCwndBytes;
  ns3::TcpCubic::IncreaseWindow(tcb, segmentsAcked);
  if (tcb->m_cWnd.Get() > kMaxCwndBytes) tcb->m_cWnd = kMaxCwndBytes;
}

ns3::Ptr<ns3::TcpCongestionOps> CappedCubic::Fork() { return ns3::CopyObject<CappedCubic>(this); }

}  // namespace geotrain::sim
