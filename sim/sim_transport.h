// Carries core Messages over the simulated network. Reliable channel: one ns-3
// TCP connection per ordered node pair, opened on first use with the segment
// size, initial window and delayed-ACK count SimNetwork chose for its path;
// retransmitted bytes and timeouts are reported to SimNetwork. Messages are
// written back to back (the highest-priority queued message goes next) and the
// receiver cuts the byte stream at the recorded message sizes. Best-effort
// channel: UDP datagrams of at most the path's segment size, cut and reassembled by the core's
// datagram discipline (core/runtime/fragments.h): a message is delivered when all its datagrams
// arrive and is lost otherwise. Payloads are never serialised: the
// network carries `wire_bytes` of zeros and the Message object travels beside.
#pragma once
#include <ns3/internet-module.h>
#include <ns3/network-module.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>

#include "core/payload/message.h"
#include "core/runtime/fragments.h"
#include "sim/sim_network.h"
#include "sim/transport.h"

namespace geotrain::sim {

class SimTransport : public Transport {
 public:
  using Deliver = std::function<void(const Message&)>;
  // Opens a TCP listener and a UDP socket on every host.
  SimTransport(SimNetwork& net, Deliver deliver);
  ~SimTransport() override;
  void send(Message msg) override;
  std::string unfinished() const override;
  // One best-effort datagram: fragment `h` of a message, `chunk_bytes` of it
  // (send() cuts messages into these; tests forge them).
  void send_fragment(NodeId from, NodeId to, const FragmentHeader& h, std::uint32_t chunk_bytes);
  // What a node's datagram reassembly counted: delivered, expired, rejected, duplicates.
  const Reassembler::Counters& datagram_counters(NodeId id) const {
    return reassemblers_.at(std::size_t(id)).counters();
  }

 private:
  struct TcpConn;
  TcpConn& connection(NodeId from, NodeId to);
  void pump(TcpConn& c);
  void on_connected(ns3::Ptr<ns3::Socket> s);
  void on_connect_failed(ns3::Ptr<ns3::Socket> s);
  void on_send_space(ns3::Ptr<ns3::Socket> s, std::uint32_t);
  void on_accept(ns3::Ptr<ns3::Socket> s, const ns3::Address& from);
  void on_tcp_recv(ns3::Ptr<ns3::Socket> s);
  void on_udp_recv(ns3::Ptr<ns3::Socket> s);
  void send_udp(Message msg);
  static void on_tcp_tx(TcpConn* c, ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h,
                        ns3::Ptr<const ns3::TcpSocketBase>);
  static void on_cong_state(TcpConn* c, ns3::TcpSocketState::TcpCongState_t, ns3::TcpSocketState::TcpCongState_t now);

  SimNetwork& net_;
  Deliver deliver_;
  std::map<std::pair<NodeId, NodeId>, std::unique_ptr<TcpConn>> conns_;
  std::unordered_map<ns3::Socket*, TcpConn*> by_socket_;                  // sender and accepted sockets
  std::map<std::pair<std::uint32_t, std::uint16_t>, TcpConn*> by_local_;  // sender's (ip, port)
  std::vector<ns3::Ptr<ns3::Socket>> listeners_, udp_, accepted_;
  std::unordered_map<ns3::Socket*, NodeId> udp_owner_;
  std::vector<Reassembler> reassemblers_;  // by receiving node
  // Best-effort messages in flight, by (sender, message number): the packets
  // carry only sizes and fragment headers.
  std::map<std::pair<std::int32_t, std::uint64_t>, Message> udp_pending_;
  std::uint64_t next_udp_id_ = 1, seq_ = 0;
};

}  // namespace geotrain::sim
