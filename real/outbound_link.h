// The connecting side of one real-mode TCP link (this node -> a peer):
// connects (retrying until the peer listens, and again if the connection drops
// before the handshake completes; queued frames wait), proves the shared
// secret, then writes frames back to back, highest priority first. With a TLS
// context it connects to the peer's TLS port and completes a TLS handshake
// (the peer's certificate must chain to the CA) before that. A failure
// after the handshake is reported (what was in flight may be lost; the
// protocol above recovers). Owned by RealNode; all
// callbacks run on the node's single io_context thread.
#pragma once
#include <boost/asio.hpp>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "real/auth.h"
#include "real/frame.h"
#include "real/link_stream.h"
#include "real/real_config.h"

namespace geotrain::real {

class OutboundLink : public std::enable_shared_from_this<OutboundLink> {
 public:
  using OnWritten = std::function<void(std::size_t bytes)>;
  using OnFailed = std::function<void(const std::string& why)>;
  // `tls` (not owned; outlives the link) selects TLS; nullptr = plain TCP.
  OutboundLink(boost::asio::io_context& io, std::int32_t self, std::string secret, Endpoint to,
               boost::asio::ssl::context* tls, OnWritten on_written, OnFailed on_failed);
  // Queues a frame; sends once authenticated. The body is shared, never copied.
  void send(FrameType type, std::shared_ptr<const ByteSpans> body, int priority);
  bool idle() const { return ready_ && !writing_ && queue_.empty(); }
  bool is_tls() const { return tls_ != nullptr; }
  // True once the peer refused to admit us (wrong secret, wrong link class):
  // retrying cannot help, so the node stops with that error.
  bool refused() const { return refused_; }
  void close();

 private:
  struct Pending {
    FrameType type;
    std::shared_ptr<const ByteSpans> body;
  };
  std::uint16_t port() const { return tls_ ? to_.tls_port : to_.tcp_port; }  // the peer's listener for this link
  void connect();
  void reconnect_later(std::chrono::milliseconds after);
  void read_frames(std::shared_ptr<LinkStream> s);
  void on_frame(FrameType t, Bytes&& body);
  void pump();
  void write_next_piece(std::shared_ptr<FrameWriter> w, std::shared_ptr<LinkStream> s);

  boost::asio::io_context& io_;
  boost::asio::ssl::context* tls_;
  std::shared_ptr<LinkStream> stream_;  // replaced on every connection attempt
  boost::asio::steady_timer retry_;
  boost::asio::steady_timer handshake_deadline_;  // a silent peer cannot stall the link
  std::int32_t self_;
  std::string secret_;
  Endpoint to_;
  OnWritten on_written_;
  OnFailed on_failed_;
  bool ready_ = false, writing_ = false, closed_ = false, refused_ = false;
  Bytes client_nonce_;
  FrameDecoder decoder_{4096};  // only auth frames come back on this link
  std::array<std::uint8_t, 4096> rbuf_;
  std::multimap<std::pair<int, std::uint64_t>, Pending> queue_;  // (-priority, seq)
  std::uint64_t seq_ = 0;
  int attempts_ = 0;
};

}  // namespace geotrain::real
