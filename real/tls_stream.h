// A TLS 1.3 connection over a TCP socket. OpenSSL runs the handshake (over
// this object's own buffers, through a BIO: no memory BIO growing, zeroing
// and shifting on every record); after it, records are sealed and opened
// here (TlsRecordCipher, real/tls_record.h), straight between the caller's
// bytes and the socket's, in large batches. Asio's ssl::stream moves at most
// one 17 KiB record per system call each way, and OpenSSL's record layer
// copies each byte twice per side: at loopback speeds those calls and copies,
// not the cipher, were most of TLS's cost. Here a write seals its whole piece
// (up to 1 MiB of records) and hands it to the kernel in one call, and a read
// takes whatever the socket holds (up to kReadBytes, real/io_sizes.h) and
// opens every whole record of it into the caller's buffer.
//
// The context must come from tls_server_context/tls_client_context
// (real/tls.h), which call configure(): it hands this class the traffic
// secrets and turns session tickets off, so no record is sent under the
// application keys before this class takes them over. Post-handshake
// messages (key updates, tickets) from a peer are refused: geotrain's peers
// send none.
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

#include "core/codec/coded_block.h"
#include "real/io_sizes.h"
#include "real/tls_record.h"

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

  // Prepares a context for TlsStream: TLS 1.3 only, the AEAD suites
  // TlsRecordCipher runs, no session tickets, and the traffic secrets handed
  // to the stream.
  static void configure(SSL_CTX* ctx);

  Socket& socket() { return socket_; }
  void async_handshake(OnDone done);
  // Decrypts into `into` as much as is available (at least one byte, or an error).
  void async_read_some(boost::asio::mutable_buffer into, OnBytes done);
  // Encrypts and sends all of `bytes`.
  void async_write(std::vector<boost::asio::const_buffer> bytes, OnBytes done);

 private:
  void handshake_step(OnDone done);
  void read_step(boost::asio::mutable_buffer into, OnBytes done);
  // Reads ciphertext from the socket into rbuf_ (the handshake's input, then the records'),
  // then calls next (or fails it).
  void fill(OnDone next);
  // Calls done once every byte in produced_ (handshake flights, sealed records) has been sent.
  void flush(OnDone done);
  void start_send();  // REQUIRES: no send in flight
  boost::system::error_code ssl_error(int ret) const;
  static const BIO_METHOD* bio_method();  // the BIO over rbuf_ and produced_
  static int bio_read(BIO* b, char* out, int n);
  static int bio_write(BIO* b, const char* in, int n);
  static void on_keylog(const SSL* ssl, const char* line);
  // Keys the record ciphers from the secrets; false if the handshake left none.
  bool take_over_records();

  Socket socket_;
  SSL* ssl_ = nullptr;
  Bytes rbuf_;  // ciphertext from the peer: [rpos_, rend_) not yet taken
  std::size_t rpos_ = 0, rend_ = 0;
  Bytes produced_;                                           // ciphertext made (by the SSL or seal), not yet being sent
  Bytes wbuf_;                                               // ciphertext being sent
  std::vector<std::uint8_t> client_secret_, server_secret_;  // until the handshake ends
  std::unique_ptr<TlsRecordCipher> sealer_, opener_;         // after it
  std::vector<std::uint8_t> pending_;              // an opened record's content the caller had no room for ...
  std::size_t pending_pos_ = 0, pending_end_ = 0;  // ... [pending_pos_, pending_end_) not yet read
  boost::system::error_code read_failed_;          // reported once the bytes before it are read
  bool sending_ = false;
  boost::system::error_code failed_;  // a send or a seal failed: every later write and flush fails with it
  std::vector<OnDone> drained_;       // flushes waiting for every produced byte to be sent
};

}  // namespace geotrain::real
