#include "sim/packet_loss_model.h"

#include <cmath>

namespace geotrain::sim {

ns3::TypeId PacketLossModel::GetTypeId() {
  static ns3::TypeId tid = ns3::TypeId("geotrain::PacketLossModel").SetParent<ns3::ErrorModel>();
  return tid;
}

PacketLossModel::PacketLossModel(double loss, std::int64_t stream)
    : keep_(1 - loss), u_(ns3::CreateObject<ns3::UniformRandomVariable>()) {
  u_->SetStream(stream);
}

std::uint32_t PacketLossModel::real_packets(std::uint32_t bytes) {
  const std::uint32_t payload = bytes > kHeaderAllowance ? bytes - kHeaderAllowance : 0;
  return std::max<std::uint32_t>(1, (payload + kRealPacketPayload - 1) / kRealPacketPayload);
}

bool PacketLossModel::DoCorrupt(ns3::Ptr<ns3::Packet> p) {
  const double survive = std::pow(keep_, double(real_packets(p->GetSize())));
  return u_->GetValue() >= survive;
}

}  // namespace geotrain::sim
