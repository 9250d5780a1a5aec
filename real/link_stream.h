// One TCP connection of a real-mode link, plain or wrapped in TLS, behind one
// interface so the link classes read and write without caring which. A TLS
// stream must complete async_handshake() before anything else; for a plain
// stream the handshake completes at once. Shared by the link and its pending
// operations (they hold a shared_ptr), so a reconnect never frees a stream
// that an operation still uses.
#pragma once
#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "real/io_sizes.h"
#include "real/tls_stream.h"

namespace geotrain::real {

class LinkStream {
 public:
  using Socket = boost::asio::ip::tcp::socket;
  using Role = boost::asio::ssl::stream_base::handshake_type;

  explicit LinkStream(Socket s) : plain_(std::move(s)) {}
  LinkStream(Socket s, boost::asio::ssl::context& tls, Role role)
      : tls_(std::make_shared<TlsStream>(std::move(s), tls, role)) {}

  Socket& socket() { return tls_ ? tls_->socket() : *plain_; }
  bool is_tls() const { return tls_ != nullptr; }

  template <class Handler>
  void async_handshake(Handler&& h) {
    if (tls_) return tls_->async_handshake(std::forward<Handler>(h));
    boost::asio::post(socket().get_executor(),
                      [h = std::forward<Handler>(h)]() mutable { h(boost::system::error_code()); });
  }
  template <class Buffers, class Handler>
  void async_read_some(const Buffers& b, Handler&& h) {
    if (tls_) return tls_->async_read_some(*boost::asio::buffer_sequence_begin(b), std::forward<Handler>(h));
    plain_->async_read_some(b, std::forward<Handler>(h));
  }
  template <class Buffers, class Handler>
  void async_write(const Buffers& b, Handler&& h) {
    if (tls_)
      return tls_->async_write(std::vector<boost::asio::const_buffer>(boost::asio::buffer_sequence_begin(b),
                                                                      boost::asio::buffer_sequence_end(b)),
                               std::forward<Handler>(h));
    boost::asio::async_write(*plain_, b, large_writes, std::forward<Handler>(h));
  }
  // Closes the socket without a TLS close_notify: peers treat a truncated TLS
  // stream like a plain end of stream (see peer_closed).
  void close() {
    boost::system::error_code ignored;
    socket().close(ignored);
  }

 private:
  // Asio's default completion condition hands the kernel at most 64 KiB per
  // write call; a large tensor then costs thousands of calls and wake-ups.
  static std::size_t large_writes(const boost::system::error_code& e, std::size_t) { return e ? 0 : kWriteBytes; }

  std::optional<Socket> plain_;
  std::shared_ptr<TlsStream> tls_;  // shared with its operations in flight
};

// The peer ended the connection (plain end of stream, or TLS without close_notify).
inline bool peer_closed(const boost::system::error_code& e) {
  return e == boost::asio::error::eof || e == boost::asio::ssl::error::stream_truncated;
}

}  // namespace geotrain::real
