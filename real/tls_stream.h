// A TLS 1.3 connection over a TCP socket: OpenSSL driven directly, in large
// batches, instead of through Asio's ssl::stream. Asio's stream moves at
// most one 17 KiB record per system call each way; at loopback speeds those
// calls, not the cipher, were most of TLS's cost (a 100 MB push+pull ran at a
// quarter of plain TCP's rate). Here a write encrypts its whole piece (up to
// 1 MiB of records) and hands it to the kernel in one call, and a read takes
// whatever the socket holds (up to kReadBytes, real/io_sizes.h) and decrypts all of it. The
// SSL reads and writes ciphertext through a BIO over this object's own buffers
// (no memory BIO growing, zeroing and shifting on every record).
//
// Contract, as for an Asio stream: one handshake, then at most one read and
// one write outstanding at a time (a write completes once its bytes are sent;
// after a failed send every later write fails); handlers run on the socket's executor,
// never inside the call that starts the operation. End of stream without a
// close_notify is reported as ssl::error::stream_truncated, a clean
// close_notify as error::eof. The context's settings (TLS version, CA,
// verification) apply: the connection is made from its SSL_CTX.
#pragma once
#include <openssl/ssl.h>

#include <boost/asio.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/stream_base.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "real/io_sizes.h"

namespace geotrain::real {

class TlsStream : public std::enable_shared_from_this<TlsStream> {
 public:
  using Socket = boost::asio::ip::tcp::socket;
  using Role = boost::asio::ssl::stream_base::handshake_type;
  using OnDone = std::function<void(const boost::system::error_code&)>;
  using OnBytes = std::function<void(const boost::system::error_code&, std::size_t)>;

  TlsStream(Socket s, boost::asio::ssl::context& ctx, Role role);
  ~TlsStream();
  TlsStream(const TlsStream&) = delete;
  TlsStream& operator=(const TlsStream&) = delete;

  Socket& socket() { return socket_; }
  void async_handshake(OnDone done);
  // Decrypts into `into` as much as is available (at least one byte, or an error).
  void async_read_some(boost::asio::mutable_buffer into, OnBytes done);
  // Encrypts and sends all of `bytes`.
  void async_write(std::vector<boost::asio::const_buffer> bytes, OnBytes done);

 private:
  void handshake_step(OnDone done);
  void read_step(boost::asio::mutable_buffer into, OnBytes done);
  // Reads ciphertext from the socket into the SSL's input, then calls next (or fails it).
  void fill(OnDone next);
  // Calls done once everything the SSL has produced so far has been sent.
  void flush(OnDone done);
  void start_send();  // REQUIRES: no send in flight
  boost::system::error_code ssl_error(int ret) const;
  static const BIO_METHOD* bio_method();  // the BIO over rbuf_ and produced_
  static int bio_read(BIO* b, char* out, int n);
  static int bio_write(BIO* b, const char* in, int n);

  Socket socket_;
  SSL* ssl_ = nullptr;
  std::vector<std::uint8_t> rbuf_;  // ciphertext from the peer: [rpos_, rend_) not yet taken by the SSL
  std::size_t rpos_ = 0, rend_ = 0;
  std::vector<std::uint8_t> produced_;  // ciphertext the SSL wrote, not yet being sent
  std::vector<std::uint8_t> wbuf_;      // ciphertext being sent
  bool sending_ = false;
  boost::system::error_code failed_;  // a send failed: every later write and flush fails with it
  std::vector<OnDone> drained_;       // flushes waiting for every produced byte to be sent
};

}  // namespace geotrain::real
