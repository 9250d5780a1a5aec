#include "real/inbound_link.h"

#include <algorithm>
#include <cstring>

#include "real/io_sizes.h"

namespace geotrain::real {

namespace asio = boost::asio;

namespace {
std::shared_ptr<LinkStream> make_stream(asio::ip::tcp::socket sock, asio::ssl::context* tls) {
  if (tls) return std::make_shared<LinkStream>(std::move(sock), *tls, LinkStream::Role::server);
  return std::make_shared<LinkStream>(std::move(sock));
}
}  // namespace

InboundLink::InboundLink(asio::ip::tcp::socket sock, asio::ssl::context* tls, std::string secret, int nodes,
                         std::size_t max_frame, Admit admit, OnFrame on_frame, OnClosed on_closed)
    : stream_(make_stream(std::move(sock), tls)),
      auth_deadline_(stream_->socket().get_executor()),
      secret_(std::move(secret)),
      nodes_(nodes),
      admit_(std::move(admit)),
      on_frame_(std::move(on_frame)),
      on_closed_(std::move(on_closed)),
      max_frame_(max_frame),
      decoder_(kPreAuthMaxFrameBytes) {}

void InboundLink::start() {
  decoder_.set_verify_checksum(!stream_->is_tls());  // TLS authenticates every byte already
  boost::system::error_code ec;
  stream_->socket().set_option(asio::ip::tcp::no_delay(true), ec);
  auto self = shared_from_this();
  auth_deadline_.expires_after(std::chrono::seconds(5));
  auth_deadline_.async_wait([this, self](const boost::system::error_code& e) {
    if (!e && peer_ < 0) close("peer did not authenticate within 5 s");
  });
  stream_->async_handshake([this, self](const boost::system::error_code& e) {
    if (closed_) return;
    if (e) return close("TLS handshake failed: " + e.message());
    nonce_ = random_bytes(kNonceBytes);
    auto frame = std::make_shared<Bytes>(make_frame(FrameType::kChallenge, nonce_));
    stream_->async_write(asio::buffer(*frame), [frame, self](const boost::system::error_code&, std::size_t) {});
    read();
  });
}

void InboundLink::close(const std::string& why) {
  if (closed_) return;
  closed_ = true;
  auth_deadline_.cancel();
  stream_->close();
  on_closed_(this, why);
}

// Tells the client why (it cannot fix a wrong secret by retrying), then hangs up.
// The reason reveals nothing a client could use: only that it was not admitted.
void InboundLink::refuse(const std::string& why) {
  if (closed_) return;
  auto frame = std::make_shared<Bytes>(make_frame(FrameType::kRefused, Bytes(why.begin(), why.end())));
  auto self = shared_from_this();
  stream_->async_write(asio::buffer(*frame),
                       [this, self, frame, why](const boost::system::error_code&, std::size_t) { close(why); });
  // The client may never read: do not wait for it longer than a second.
  auth_deadline_.expires_after(std::chrono::seconds(1));
  auth_deadline_.async_wait([this, self, why](const boost::system::error_code& e) {
    if (!e) close(why);
  });
}

void InboundLink::read() {
  auto self = shared_from_this();
  const auto [dst, room] = decoder_.prepare();  // straight into the frame buffer: no extra copy
  // At most kReadBytes per call: the checksum and the finite-value check then
  // run on bytes still in cache, not on megabytes fetched again from memory.
  stream_->async_read_some(asio::buffer(dst, std::min(room, kReadBytes)),
                           [this, self](const boost::system::error_code& e, std::size_t n) {
                             if (closed_) return;
                             if (peer_closed(e)) {
                               if (peer_ < 0) return close("peer left without authenticating");
                               return close(decoder_.mid_frame() ? "truncated frame" : "peer closed");
                             }
                             if (e) return close(e.message());
                             try {
                               decoder_.commit(n, [this](Frame&& f) {
                                 if (!closed_) on_frame(std::move(f));
                               });
                             } catch (const OversizeFrame& of) {
                               // Authenticated, it is one of the job's own nodes: its message is larger than
                               // the job allows (a learner that sends more than it declares). Fatal, not noise.
                               if (peer_ >= 0)
                                 fatal_ = "sent a " + std::string(frame_type_name(of.type)) + " frame of " +
                                          std::to_string(of.size) + " bytes, above the job's limit of " +
                                          std::to_string(of.limit) + " bytes for an authenticated peer";
                               return close(std::string("malformed frame: ") + of.what());
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
      return refuse("peer failed authentication (wrong secret or unknown node id)");
    if (const std::string refused = admit_(node, stream_->is_tls()); !refused.empty())
      return refuse("node " + std::to_string(node) + " refused: " + refused);
    peer_ = node;
    decoder_.set_max_body(max_frame_);  // only now may frames be as large as the job needs
    auto frame = std::make_shared<Bytes>(make_frame(FrameType::kAccept, server_proof(secret_, client_nonce)));
    auto self = shared_from_this();
    stream_->async_write(asio::buffer(*frame), [frame, self](const boost::system::error_code&, std::size_t) {});
    return;
  }
  on_frame_(peer_, std::move(f));
}

}  // namespace geotrain::real
