#include "real/outbound_link.h"

#include <cstring>

#include "real/io_sizes.h"

namespace geotrain::real {

namespace asio = boost::asio;
using asio::ip::tcp;

OutboundLink::OutboundLink(asio::io_context& io, std::int32_t self, std::string secret, Endpoint to,
                           asio::ssl::context* tls, OnWritten on_written, OnFailed on_failed)
    : io_(io),
      tls_(tls),
      retry_(io),
      handshake_deadline_(io),
      self_(self),
      secret_(std::move(secret)),
      to_(std::move(to)),
      on_written_(std::move(on_written)),
      on_failed_(std::move(on_failed)) {}

void OutboundLink::send(FrameType type, std::shared_ptr<const ByteSpans> body, int priority) {
  if (closed_) return;
  Pending p{type, std::move(body)};
  queue_.emplace(std::make_pair(-priority, seq_++), std::move(p));
  if (!ready_ && !stream_ && attempts_ == 0) connect();
  pump();
}

void OutboundLink::close() {
  closed_ = true;
  retry_.cancel();
  handshake_deadline_.cancel();
  if (stream_) stream_->close();
}

void OutboundLink::reconnect_later(std::chrono::milliseconds after) {
  if (stream_) stream_->close();
  stream_.reset();
  client_nonce_.clear();
  decoder_ = FrameDecoder(4096);
  auto self = shared_from_this();
  retry_.expires_after(after);
  retry_.async_wait([this, self](const boost::system::error_code& w) {
    if (!w) connect();
  });
}

void OutboundLink::connect() {
  if (closed_) return;
  ++attempts_;
  boost::system::error_code ec;
  const tcp::endpoint ep(asio::ip::make_address(to_.host, ec), port());
  if (ec) return on_failed_("bad peer address " + to_.host);
  if (port() == 0) return on_failed_(tls_ ? "TLS link, but the peer has no tls_port" : "the peer has no tcp_port");
  auto s = tls_ ? std::make_shared<LinkStream>(tcp::socket(io_), *tls_, LinkStream::Role::client)
                : std::make_shared<LinkStream>(tcp::socket(io_));
  stream_ = s;
  auto self = shared_from_this();
  s->socket().async_connect(ep, [this, self, s](const boost::system::error_code& e) {
    if (closed_ || s != stream_) return;
    if (e) return reconnect_later(std::chrono::milliseconds(50));  // the peer may not be listening yet
    boost::system::error_code ignored;
    s->socket().set_option(tcp::no_delay(true), ignored);
    handshake_deadline_.expires_after(std::chrono::seconds(5));
    handshake_deadline_.async_wait([this, self, s](const boost::system::error_code& w) {
      if (w || ready_ || closed_ || s != stream_) return;
      s->close();  // the pending operation fails and the link reconnects
    });
    s->async_handshake([this, self, s](const boost::system::error_code& h) {
      if (closed_ || s != stream_) return;
      if (h && h.category() == asio::error::get_ssl_category()) {  // a certificate the CA did not sign, etc.
        close();
        return on_failed_("TLS handshake with " + to_.host + ":" + std::to_string(port()) + " failed: " + h.message());
      }
      if (h) return reconnect_later(std::chrono::milliseconds(100));  // dropped (peer restarting): retry
      read_frames(s);
    });
  });
}

void OutboundLink::read_frames(std::shared_ptr<LinkStream> s) {
  auto self = shared_from_this();
  s->async_read_some(asio::buffer(rbuf_), [this, self, s](const boost::system::error_code& e, std::size_t n) {
    if (closed_ || s != stream_) return;
    // Dropped during the handshake (peer restarting, relay without a peer): retry, keep the queue.
    if (e && !ready_) return reconnect_later(std::chrono::milliseconds(100));
    if (e) return on_failed_("connection to " + to_.host + ":" + std::to_string(port()) + " lost: " + e.message());
    try {
      decoder_.feed(rbuf_.data(), n, [this](Frame&& f) { on_frame(f.type, std::move(f.body)); });
    } catch (const FrameError& fe) {
      close();
      return on_failed_(std::string("bad frame from peer: ") + fe.what());
    }
    if (!closed_) read_frames(s);
  });
}

void OutboundLink::on_frame(FrameType t, Bytes&& body) {
  if (t == FrameType::kChallenge && !ready_ && client_nonce_.empty()) {
    if (body.size() != kNonceBytes) return on_failed_("malformed auth challenge");
    client_nonce_ = random_bytes(kNonceBytes);
    Bytes resp;
    resp.reserve(sizeof self_ + kNonceBytes + kMacBytes);
    const auto* id = reinterpret_cast<const std::uint8_t*>(&self_);
    resp.insert(resp.end(), id, id + sizeof self_);
    resp.insert(resp.end(), client_nonce_.begin(), client_nonce_.end());
    const Bytes mac = client_proof(secret_, body, self_);
    resp.insert(resp.end(), mac.begin(), mac.end());
    auto frame = std::make_shared<Bytes>(make_frame(FrameType::kResponse, resp));
    auto s = stream_;
    s->async_write(asio::buffer(*frame), [frame, s](const boost::system::error_code&, std::size_t) {});
    return;
  }
  if (t == FrameType::kRefused && !ready_) {
    std::string why;
    for (std::uint8_t c : body)
      if (why.size() < 200) why += (c >= 32 && c < 127) ? char(c) : '?';
    refused_ = true;
    close();
    return on_failed_("node at " + to_.host + ":" + std::to_string(port()) + " refused us: " + why);
  }
  if (t == FrameType::kAccept && !ready_ && !client_nonce_.empty()) {
    const Bytes expect = server_proof(secret_, client_nonce_);
    if (body.size() != expect.size() || !equal_ct(body.data(), expect.data(), expect.size())) {
      close();
      return on_failed_("peer failed to prove the shared secret");
    }
    ready_ = true;
    handshake_deadline_.cancel();
    return pump();
  }
  close();
  on_failed_("unexpected frame on an outbound link");
}

void OutboundLink::pump() {
  if (!ready_ || writing_ || queue_.empty() || closed_ || !stream_) return;
  writing_ = true;
  auto it = queue_.begin();
  auto w = std::make_shared<FrameWriter>(it->second.type, std::move(it->second.body), kWriteBytes,
                                         /*checksum=*/tls_ == nullptr);
  queue_.erase(it);
  write_next_piece(std::move(w), stream_);
}

void OutboundLink::write_next_piece(std::shared_ptr<FrameWriter> w, std::shared_ptr<LinkStream> s) {
  const FrameWriter::Spans& piece = w->next();
  if (piece.empty()) {
    writing_ = false;
    on_written_(w->frame_bytes());
    return pump();
  }
  std::vector<asio::const_buffer> bufs;
  bufs.reserve(piece.size());
  for (const auto& [ptr, n] : piece) bufs.emplace_back(ptr, n);
  auto self = shared_from_this();
  s->async_write(bufs, [this, self, s, w](const boost::system::error_code& e, std::size_t) {
    if (e || closed_) {
      writing_ = false;
      if (!closed_) on_failed_("write failed: " + e.message());
      return;
    }
    write_next_piece(w, s);
  });
}

}  // namespace geotrain::real
