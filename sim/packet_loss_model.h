// Loss at the rate of real packets, whatever size the simulated packets are.
// A link with loss probability p loses each real packet (1448 payload bytes,
// as on a 1500-byte-MTU path) independently; a simulated packet carrying n
// real packets' worth of payload is lost when any of them is: probability
// 1 - (1 - p)^n. A 1448-byte TCP segment or an ACK is one real packet.
//
// For TCP the simulation does not rely on this: a connection whose path has a
// lossy link sends 1448-byte segments (SimNetwork's segment rule), because a
// lost super-segment costs TCP far more than one lost real packet would (one
// window halving per 44 real packets instead of per 1). It matters for
// best-effort datagrams, which are cut at the link MTU.
#pragma once
#include <ns3/core-module.h>
#include <ns3/network-module.h>

#include <cstdint>

namespace geotrain::sim {

class PacketLossModel : public ns3::ErrorModel {
 public:
  static constexpr std::uint32_t kRealPacketPayload = 1448;
  // Link-layer (2), IP (20), TCP (20) and timestamp option (12) bytes, plus
  // slack for SACK blocks: a 1448-byte segment with them counts once.
  static constexpr std::uint32_t kHeaderAllowance = 62;
  static ns3::TypeId GetTypeId();
  PacketLossModel(double loss, std::int64_t stream);
  // Real packets a simulated packet of this many bytes stands for.
  static std::uint32_t real_packets(std::uint32_t bytes);

 private:
  bool DoCorrupt(ns3::Ptr<ns3::Packet> p) override;
  void DoReset() override {}
  double keep_ = 1;  // 1 - loss
  ns3::Ptr<ns3::UniformRandomVariable> u_;
};

}  // namespace geotrain::sim
