#include "sim/sim_transport.h"

#include <ns3/core-module.h>

#include <stdexcept>

#include "core/payload/wire.h"
#include "sim/link_sizing.h"

namespace geotrain::sim {
namespace {

constexpr std::uint16_t kTcpPort = 9000;
constexpr std::uint16_t kUdpPort = 9001;
constexpr std::uint32_t kUdpHeaders = 28;  // IP + UDP
constexpr std::uint32_t kTcpHeaders = 52;  // IP + TCP + timestamps: a datagram fills the MTU a segment fills

// Carries a UDP datagram's fragment header (core/runtime/fragments.h); the packet's
// size is the header's and its chunk's.
class FragmentTag : public ns3::Tag {
 public:
  static ns3::TypeId GetTypeId() {
    static ns3::TypeId tid = ns3::TypeId("geotrain::FragmentTag").SetParent<ns3::Tag>().AddConstructor<FragmentTag>();
    return tid;
  }
  ns3::TypeId GetInstanceTypeId() const override { return GetTypeId(); }
  std::uint32_t GetSerializedSize() const override { return kFragmentHeaderBytes; }
  void Serialize(ns3::TagBuffer b) const override {
    b.WriteU32(std::uint32_t(h.from));
    b.WriteU64(h.msg);
    b.WriteU16(h.index);
    b.WriteU16(h.count);
  }
  void Deserialize(ns3::TagBuffer b) override {
    h.from = std::int32_t(b.ReadU32());
    h.msg = b.ReadU64();
    h.index = b.ReadU16();
    h.count = b.ReadU16();
  }
  void Print(std::ostream& os) const override { os << "msg=" << h.from << '/' << h.msg << " part=" << h.index; }
  FragmentHeader h;
};

}  // namespace

struct SimTransport::TcpConn {
  SimNetwork* net = nullptr;
  const PathInfo* path = nullptr;  // SimNetwork keeps it
  ns3::Ptr<ns3::Socket> socket;
  bool sent_any = false;
  ns3::SequenceNumber32 sent_end;  // one past the highest byte sent so far
  bool connected = false;
  std::multimap<std::pair<int, std::uint64_t>, Message> queued;  // by (-priority, seq)
  std::uint64_t unwritten = 0;                                   // bytes of the current message not yet handed to TCP
  std::deque<Message> in_flight;                                 // started, not yet fully received, in write order
  std::uint64_t received = 0;                                    // bytes received towards in_flight.front()
};

SimTransport::SimTransport(SimNetwork& net, Deliver deliver) : net_(net), deliver_(std::move(deliver)) {
  using namespace ns3;
  for (NodeId id = 0; id < net_.host_count(); ++id) {
    Ptr<Socket> l = Socket::CreateSocket(net_.host(id), TcpSocketFactory::GetTypeId());
    l->Bind(InetSocketAddress(Ipv4Address::GetAny(), kTcpPort));
    l->Listen();
    l->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                         MakeCallback(&SimTransport::on_accept, this));
    listeners_.push_back(l);
    Ptr<Socket> u = Socket::CreateSocket(net_.host(id), UdpSocketFactory::GetTypeId());
    u->Bind(InetSocketAddress(Ipv4Address::GetAny(), kUdpPort));
    u->SetRecvCallback(MakeCallback(&SimTransport::on_udp_recv, this));
    udp_owner_[PeekPointer(u)] = id;
    udp_.push_back(u);
    reassemblers_.emplace_back();
  }
}

SimTransport::~SimTransport() {
  // Break the socket -> this callbacks before ns-3 tears the sockets down.
  for (auto& [k, c] : conns_) {
    (void)k;
    c->socket->SetConnectCallback(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>>(),
                                  ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>>());
    c->socket->SetSendCallback(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>, std::uint32_t>());
  }
  for (auto& s : accepted_) s->SetRecvCallback(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>>());
  for (auto& s : udp_) s->SetRecvCallback(ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>>());
  for (auto& s : listeners_)
    s->SetAcceptCallback(ns3::MakeNullCallback<bool, ns3::Ptr<ns3::Socket>, const ns3::Address&>(),
                         ns3::MakeNullCallback<void, ns3::Ptr<ns3::Socket>, const ns3::Address&>());
}

void SimTransport::send(Message msg) {
  if (msg.channel == Channel::kBestEffort) return send_udp(std::move(msg));
  TcpConn& c = connection(msg.from, msg.to);
  const int prio = msg.priority;
  c.queued.emplace(std::make_pair(-prio, seq_++), std::move(msg));
  pump(c);
}

// Entering the Loss state is what a retransmission timeout does (fast
// retransmits go through Recovery instead).
void SimTransport::on_cong_state(TcpConn* c, ns3::TcpSocketState::TcpCongState_t,
                                 ns3::TcpSocketState::TcpCongState_t now) {
  if (now == ns3::TcpSocketState::CA_LOSS) c->net->count_rto(*c->path);
}

// A segment that starts below the highest byte already sent is (partly) a retransmission.
void SimTransport::on_tcp_tx(TcpConn* c, ns3::Ptr<const ns3::Packet> p, const ns3::TcpHeader& h,
                             ns3::Ptr<const ns3::TcpSocketBase>) {
  const std::uint32_t size = p->GetSize();
  if (size == 0) return;
  const ns3::SequenceNumber32 begin = h.GetSequenceNumber(), end = begin + size;
  if (!c->sent_any) {
    c->sent_any = true;
    c->sent_end = end;
    return;
  }
  if (begin < c->sent_end) {
    const std::uint32_t again = end <= c->sent_end ? size : std::uint32_t(c->sent_end - begin);
    c->net->count_retransmitted(*c->path, again);
  }
  if (end > c->sent_end) c->sent_end = end;
}

SimTransport::TcpConn& SimTransport::connection(NodeId from, NodeId to) {
  using namespace ns3;
  auto& slot = conns_[{from, to}];
  if (slot) return *slot;
  slot = std::make_unique<TcpConn>();
  TcpConn& c = *slot;
  c.net = &net_;
  c.path = &net_.path(from, to);
  c.socket = Socket::CreateSocket(net_.host(from), TcpSocketFactory::GetTypeId());
  c.socket->SetAttribute("SegmentSize", UintegerValue(c.path->segment_bytes));
  c.socket->SetAttribute("InitialCwnd", UintegerValue(net_.initial_cwnd_segments(c.path->segment_bytes)));
  c.socket->SetAttribute("SndBufSize", UintegerValue(c.path->send_buffer));
  c.socket->Bind(InetSocketAddress(net_.address(from), 0));
  Address local;
  c.socket->GetSockName(local);
  const InetSocketAddress la = InetSocketAddress::ConvertFrom(local);
  by_local_[{la.GetIpv4().Get(), la.GetPort()}] = &c;
  by_socket_[PeekPointer(c.socket)] = &c;
  c.socket->SetConnectCallback(MakeCallback(&SimTransport::on_connected, this),
                               MakeCallback(&SimTransport::on_connect_failed, this));
  c.socket->SetSendCallback(MakeCallback(&SimTransport::on_send_space, this));
  c.socket->TraceConnectWithoutContext("CongState", MakeBoundCallback(&SimTransport::on_cong_state, &c));
  c.socket->TraceConnectWithoutContext("Tx", MakeBoundCallback(&SimTransport::on_tcp_tx, &c));
  c.socket->Connect(InetSocketAddress(net_.address(to), kTcpPort));
  return c;
}

void SimTransport::pump(TcpConn& c) {
  if (!c.connected) return;
  for (;;) {
    if (c.unwritten == 0) {
      if (c.queued.empty()) return;
      auto it = c.queued.begin();
      c.unwritten = it->second.wire_bytes;
      c.in_flight.push_back(std::move(it->second));
      c.queued.erase(it);
    }
    const std::uint32_t room = c.socket->GetTxAvailable();
    if (room == 0) return;
    const std::uint32_t n = std::uint32_t(std::min<std::uint64_t>(room, c.unwritten));
    const int sent = c.socket->Send(ns3::Create<ns3::Packet>(n));
    if (sent <= 0) return;
    c.unwritten -= std::uint64_t(sent);
  }
}

std::string SimTransport::unfinished() const {
  std::string out;
  for (const auto& [k, c] : conns_) {
    if (c->in_flight.empty() && c->queued.empty()) continue;
    std::uint64_t awaited = 0, queued = 0;
    for (const auto& m : c->in_flight) awaited += m.wire_bytes;
    for (const auto& [key, m] : c->queued) queued += m.wire_bytes;
    out += "node " + std::to_string(k.first) + " -> " + std::to_string(k.second) + ": " +
           std::to_string(c->in_flight.size()) + " message(s) of " + std::to_string(awaited) + " bytes started, " +
           std::to_string(c->received) + " received, " + std::to_string(c->unwritten) +
           " not yet given to TCP (its send buffer has room for " + std::to_string(c->socket->GetTxAvailable()) +
           "); " + std::to_string(c->queued.size()) + " queued (" + std::to_string(queued) + " bytes)\n";
  }
  return out;
}

void SimTransport::on_connected(ns3::Ptr<ns3::Socket> s) {
  TcpConn& c = *by_socket_.at(ns3::PeekPointer(s));
  c.connected = true;
  pump(c);
}

void SimTransport::on_connect_failed(ns3::Ptr<ns3::Socket>) {
  throw std::runtime_error("simulated TCP connection failed (no route or handshake timed out)");
}

void SimTransport::on_send_space(ns3::Ptr<ns3::Socket> s, std::uint32_t) {
  auto it = by_socket_.find(ns3::PeekPointer(s));
  if (it != by_socket_.end()) pump(*it->second);
}

void SimTransport::on_accept(ns3::Ptr<ns3::Socket> s, const ns3::Address& from) {
  const ns3::InetSocketAddress fa = ns3::InetSocketAddress::ConvertFrom(from);
  auto it = by_local_.find({fa.GetIpv4().Get(), fa.GetPort()});
  if (it == by_local_.end()) throw std::logic_error("simulated TCP accept from an unknown sender");
  by_socket_[ns3::PeekPointer(s)] = it->second;
  // The receiver ACKs every n-th segment of its sender's size (the listener's
  // default was for segment_bytes).
  s->SetAttribute("DelAckCount", ns3::UintegerValue(SimNetwork::delayed_ack_count(it->second->path->segment_bytes)));
  accepted_.push_back(s);
  s->SetRecvCallback(ns3::MakeCallback(&SimTransport::on_tcp_recv, this));
}

void SimTransport::on_tcp_recv(ns3::Ptr<ns3::Socket> s) {
  TcpConn& c = *by_socket_.at(ns3::PeekPointer(s));
  while (ns3::Ptr<ns3::Packet> p = s->Recv()) {
    c.received += p->GetSize();
    while (!c.in_flight.empty() && c.received >= c.in_flight.front().wire_bytes) {
      c.received -= c.in_flight.front().wire_bytes;
      Message m = std::move(c.in_flight.front());
      c.in_flight.pop_front();
      // Deliver in an event of its own: the receiving actor never runs inside
      // the network stack's callback chain.
      ns3::Simulator::ScheduleNow([this, m = std::move(m)] { deliver_(m); });
    }
  }
}

void SimTransport::send_udp(Message msg) {
  using namespace ns3;
  const std::uint32_t max_payload = net_.path(msg.from, msg.to).segment_bytes + kTcpHeaders - kUdpHeaders;
  const std::size_t chunk = max_payload - kFragmentHeaderBytes;
  FragmentHeader h{msg.from, next_udp_id_++, 0, fragment_count(msg.wire_bytes, chunk)};
  const NodeId to = msg.to;
  std::uint64_t left = msg.wire_bytes;
  const auto key = std::make_pair(h.from, h.msg);
  udp_pending_[key] = std::move(msg);
  for (; h.index < h.count; ++h.index) {
    const std::uint64_t n = std::min<std::uint64_t>(left, chunk);
    left -= n;
    send_fragment(h.from, to, h, std::uint32_t(n));
  }
  Simulator::Schedule(NanoSeconds(kFragmentLifetimeNs), [this, key] { udp_pending_.erase(key); });
}

void SimTransport::send_fragment(NodeId from, NodeId to, const FragmentHeader& h, std::uint32_t chunk_bytes) {
  using namespace ns3;
  Ptr<Packet> p = Create<Packet>(chunk_bytes + std::uint32_t(kFragmentHeaderBytes));
  FragmentTag tag;
  tag.h = h;
  p->AddPacketTag(tag);
  udp_[std::size_t(from)]->SendTo(p, 0, InetSocketAddress(net_.address(to), kUdpPort));
}

void SimTransport::on_udp_recv(ns3::Ptr<ns3::Socket> s) {
  const NodeId self = udp_owner_.at(ns3::PeekPointer(s));
  while (ns3::Ptr<ns3::Packet> p = s->Recv()) {
    FragmentTag tag;
    if (!p->PeekPacketTag(tag) || p->GetSize() < kFragmentHeaderBytes) continue;
    std::optional<std::vector<FragmentBytes>> done;
    try {
      done = reassemblers_[std::size_t(self)].add(tag.h, p->GetSize() - kFragmentHeaderBytes, {},
                                                  ns3::Simulator::Now().GetNanoSeconds());
    } catch (const WireError&) {
      continue;  // malformed: the reassembler counted it
    }
    if (!done) continue;
    auto it = udp_pending_.find({tag.h.from, tag.h.msg});
    if (it == udp_pending_.end() || it->second.to != self) continue;  // unknown message: nothing to deliver
    Message m = std::move(it->second);
    udp_pending_.erase(it);
    ns3::Simulator::ScheduleNow([this, m = std::move(m)] { deliver_(m); });
  }
}

}  // namespace geotrain::sim
