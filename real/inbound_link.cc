#include "real/inbound_link.h"

#include <cstring>

namespace geotrain::real {

namespace asio = boost::asio;

InboundLink::InboundLink(asio::ip::tcp::socket sock, std::string secret, int nodes, std::size_t max_frame,
                         OnFrame on_frame, OnClosed on_closed)
    : sock_(std::move(sock)),
      auth_deadline_(sock_.get_executor()),
      secret_(std::move(secret)),
      nodes_(nodes),
      on_frame_(std::move(on_frame)),
      on_closed_(std::move(on_closed)),
      decoder_(max_frame) {}

void InboundLink::start() {
  boost::system::error_code ec;
  sock_.set_option(asio::ip::tcp::no_delay(true), ec);
  nonce_ = random_bytes(kNonceBytes);
  auto frame = std::make_shared<Bytes>(make_frame(FrameType::kChallenge, nonce_));
  auto self = shared_from_this();
  asio::async_write(sock_, asio::buffer(*frame), [frame, self](const boost::system::error_code&, std::size_t) {});
  auth_deadline_.expires_after(std::chrono::seconds(5));
  auth_deadline_.async_wait([this, self](const boost::system::error_code& e) {
    if (!e && peer_ < 0) close("peer did not authenticate within 5 s");
  });
  read();
}

void InboundLink::close(const std::string& why) {
  if (closed_) return;
  closed_ = true;
  auth_deadline_.cancel();
  boost::system::error_code ec;
  sock_.close(ec);
  on_closed_(this, why);
}

void InboundLink::read() {
  auto self = shared_from_this();
  const auto [dst, room] = decoder_.prepare();  // straight into the frame buffer: no extra copy
  sock_.async_read_some(asio::buffer(dst, room), [this, self](const boost::system::error_code& e, std::size_t n) {
    if (closed_) return;
    if (e == asio::error::eof) {
      if (peer_ < 0) return close("peer left without authenticating");
      return close(decoder_.mid_frame() ? "truncated frame" : "peer closed");
    }
    if (e) return close(e.message());
    try {
      decoder_.commit(n, [this](Frame&& f) {
        if (!closed_) on_frame(std::move(f));
      });
    } catch (const FrameError& fe) {
      return close(std::string("malformed frame: ") + fe.what());
    }
    if (!closed_) read();
  });
}

void InboundLink::on_frame(Frame&& f) {
  const FrameType t = f.type;
  const Bytes& body = f.body;
  if (peer_ < 0) {  // only an authentication response is acceptable now
    if (t != FrameType::kResponse) return close("unauthenticated peer sent a frame before proving the secret");
    if (body.size() != sizeof(std::int32_t) + kNonceBytes + kMacBytes) return close("malformed auth response");
    std::int32_t node;
    std::memcpy(&node, body.data(), sizeof node);
    const Bytes client_nonce(body.begin() + sizeof node, body.begin() + sizeof node + kNonceBytes);
    const Bytes expect = client_proof(secret_, nonce_, node);
    if (node < 0 || node >= nodes_ || !equal_ct(expect.data(), body.data() + sizeof node + kNonceBytes, kMacBytes))
      return close("peer failed authentication (wrong secret or unknown node id)");
    peer_ = node;
    auto frame = std::make_shared<Bytes>(make_frame(FrameType::kAccept, server_proof(secret_, client_nonce)));
    auto self = shared_from_this();
    asio::async_write(sock_, asio::buffer(*frame), [frame, self](const boost::system::error_code&, std::size_t) {});
    return;
  }
  on_frame_(peer_, std::move(f));
}

}  // namespace geotrain::real
