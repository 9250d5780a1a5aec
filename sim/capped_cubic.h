// ns-3 3.37's TcpCubic with its congestion window held below 2^31 bytes.
//
// ns-3 3.37 grows cwnd on every ACK even when the sender is application-
// limited (it has no congestion-window validation, RFC 7661, which Linux
// applies), and cwnd is a uint32_t: on a lossless LAN carrying many small
// messages it climbs past 4 GiB and wraps to a few kilobytes, below one
// segment. The sender then waits for a window that no ACK will open, and the
// simulation runs out of events (seen after 4,508 rounds of a GAN, 8.6 GB on
// each worker's connection). A window above 2 GiB is larger than any send or
// receive buffer, so the cap changes nothing that TCP could send; it only
// keeps the arithmetic from wrapping.
#pragma once
#include <ns3/tcp-cubic.h>

namespace geotrain::sim {

class CappedCubic : public ns3::TcpCubic {
 public:
  static constexpr std::uint32_t kMaxCwndBytes = std::uint32_t(1) << 31;
  static ns3::TypeId GetTypeId();
  CappedCubic() = default;
  CappedCubic(const CappedCubic& other) = default;
  std::string GetName() const override { return "CappedCubic"; }
  void IncreaseWindow(ns3::Ptr<ns3::TcpSocketState> tcb, std::uint32_t segmentsAcked) override;
  ns3::Ptr<ns3::TcpCongestionOps> Fork() override;
};

}  // namespace geotrain::sim
