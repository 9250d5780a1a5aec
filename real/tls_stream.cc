#include "real/tls_stream.h"

#include <openssl/err.h>

#include <algorithm>
#include <boost/asio/ssl/error.hpp>
#include <cstring>
#include <stdexcept>
#include <string>

namespace geotrain::real {

namespace asio = boost::asio;
using boost::system::error_code;

namespace {

long bio_ctrl(BIO*, int cmd, long, void*) { return cmd == BIO_CTRL_FLUSH ? 1 : 0; }
int bio_create(BIO* b) {
  BIO_set_init(b, 1);
  return 1;
}

}  // namespace

const BIO_METHOD* TlsStream::bio_method() {
  static BIO_METHOD* const m = [] {
    BIO_METHOD* b = BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK, "geotrain TLS buffers");
    BIO_meth_set_read(b, &TlsStream::bio_read);
    BIO_meth_set_write(b, &TlsStream::bio_write);
    BIO_meth_set_ctrl(b, bio_ctrl);
    BIO_meth_set_create(b, bio_create);
    return b;
  }();
  return m;
}

int TlsStream::bio_read(BIO* b, char* out, int n) {
  auto* t = static_cast<TlsStream*>(BIO_get_data(b));
  BIO_clear_retry_flags(b);
  const std::size_t k = std::min(t->rend_ - t->rpos_, std::size_t(n));
  if (k == 0) {
    BIO_set_retry_read(b);  // nothing yet: the SSL reports WANT_READ
    return -1;
  }
  std::memcpy(out, t->rbuf_.data() + t->rpos_, k);
  t->rpos_ += k;
  return int(k);
}

int TlsStream::bio_write(BIO* b, const char* in, int n) {
  auto* t = static_cast<TlsStream*>(BIO_get_data(b));
  BIO_clear_retry_flags(b);
  t->produced_.insert(t->produced_.end(), in, in + n);
  return n;
}

void TlsStream::configure(SSL_CTX* ctx) {
  SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
  // AES-128-GCM first (TLS 1.3's mandatory suite): about 7% faster than
  // OpenSSL's default AES-256-GCM here, with AES-NI on every x86-64 we target.
  SSL_CTX_set_ciphersuites(ctx, "TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256");
  SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE);
  SSL_CTX_set_num_tickets(ctx, 0);  // a ticket would be a record under the application keys
  SSL_CTX_set_keylog_callback(ctx, &TlsStream::on_keylog);
}

// OpenSSL 3.0 hands out the traffic secrets only through its key log: keep
// this connection's two application secrets (never written anywhere).
void TlsStream::on_keylog(const SSL* ssl, const char* line) {
  auto* t = static_cast<TlsStream*>(SSL_get_app_data(ssl));
  if (!t) return;
  const char* sp = std::strchr(line, ' ');
  const char* hex = sp ? std::strchr(sp + 1, ' ') : nullptr;
  if (!hex) return;
  const std::string label(line, sp);
  std::vector<std::uint8_t>* into = label == "CLIENT_TRAFFIC_SECRET_0"   ? &t->client_secret_
                                    : label == "SERVER_TRAFFIC_SECRET_0" ? &t->server_secret_
                                                                         : nullptr;
  if (!into) return;
  long n = 0;
  std::unique_ptr<unsigned char, void (*)(unsigned char*)> bytes(OPENSSL_hexstr2buf(hex + 1, &n),
                                                                 [](unsigned char* b) { OPENSSL_free(b); });
  if (!bytes) return;  // no secret: the handshake's end then fails the stream
  into->assign(bytes.get(), bytes.get() + n);
  OPENSSL_cleanse(bytes.get(), std::size_t(n));
}

bool TlsStream::take_over_records() {
  if (client_secret_.empty() || server_secret_.empty()) return false;
  const SSL_CIPHER* suite = SSL_get_current_cipher(ssl_);
  const bool server = SSL_is_server(ssl_) == 1;
  sealer_ = std::make_unique<TlsRecordCipher>(suite, server ? server_secret_ : client_secret_);
  opener_ = std::make_unique<TlsRecordCipher>(suite, server ? client_secret_ : server_secret_);
  OPENSSL_cleanse(client_secret_.data(), client_secret_.size());
  OPENSSL_cleanse(server_secret_.data(), server_secret_.size());
  client_secret_.clear();
  server_secret_.clear();
  pending_.resize(TlsRecordCipher::kMaxRecord);
  return true;
}

TlsStream::TlsStream(Socket s, asio::ssl::context& ctx, Role role)
    : socket_(std::move(s)), ssl_(SSL_new(ctx.native_handle())) {
  if (!ssl_) throw std::runtime_error("cannot create a TLS connection");
  if (SSL_CTX_get_keylog_callback(ctx.native_handle()) != &TlsStream::on_keylog) {
    SSL_free(ssl_);
    throw std::logic_error("TlsStream needs a context prepared by TlsStream::configure (real/tls.h)");
  }
  SSL_set_app_data(ssl_, this);
  BIO* bio = BIO_new(bio_method());
  BIO_set_data(bio, this);
  SSL_set_bio(ssl_, bio, bio);  // ssl_ owns it from here
  if (role == Role::client)
    SSL_set_connect_state(ssl_);
  else
    SSL_set_accept_state(ssl_);
}

TlsStream::~TlsStream() {
  OPENSSL_cleanse(client_secret_.data(), client_secret_.size());
  OPENSSL_cleanse(server_secret_.data(), server_secret_.size());
  SSL_free(ssl_);
}

error_code TlsStream::ssl_error(int ret) const {
  const int e = SSL_get_error(ssl_, ret);
  if (e == SSL_ERROR_ZERO_RETURN) return asio::error::eof;  // the peer's close_notify
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return asio::ssl::error::stream_truncated;
  return error_code(int(code), asio::error::get_ssl_category());
}

void TlsStream::async_handshake(OnDone done) { handshake_step(std::move(done)); }

void TlsStream::handshake_step(OnDone done) {
  ERR_clear_error();
  const int r = SSL_do_handshake(ssl_);
  const int e = r == 1 ? SSL_ERROR_NONE : SSL_get_error(ssl_, r);
  const error_code failure = (r == 1 || e == SSL_ERROR_WANT_READ) ? error_code() : ssl_error(r);
  // Whatever happened, what the SSL wrote (a flight, or an alert) goes to the peer first.
  flush([this, self = shared_from_this(), r, e, failure, done](const error_code& sent) {
    if (failure || sent) return done(failure ? failure : sent);
    if (r == 1) {
      try {
        if (take_over_records()) return done(error_code());
      } catch (const std::exception&) {
      }
      return done(asio::error::operation_not_supported);  // no secrets, or a suite we cannot run
    }
    if (e == SSL_ERROR_WANT_READ)
      fill([this, self, done](const error_code& got) {
        if (got) return done(got);
        handshake_step(done);
      });
  });
}

void TlsStream::async_read_some(asio::mutable_buffer into, OnBytes done) { read_step(into, std::move(done)); }

void TlsStream::read_step(asio::mutable_buffer into, OnBytes done) {
  if (!opener_) return asio::post(socket_.get_executor(), [done] { done(asio::error::not_connected, 0); });
  auto* p = static_cast<std::uint8_t*>(into.data());
  std::size_t got = 0;
  const auto serve_pending = [&] {
    const std::size_t k = std::min(pending_end_ - pending_pos_, into.size() - got);
    std::memcpy(p + got, pending_.data() + pending_pos_, k);
    pending_pos_ += k;
    got += k;
  };
  serve_pending();
  // Open every whole record already received: straight into the caller's
  // buffer when the record fits in what is left of it, else (only when
  // nothing is read yet: a small buffer) into pending_ and served from there.
  while (got < into.size() && !read_failed_) {
    const long size = TlsRecordCipher::record_size(rbuf_.data() + rpos_, rend_ - rpos_);
    if (size < 0) {
      read_failed_ = asio::ssl::error::unexpected_result;
      break;
    }
    if (size == 0 || rend_ - rpos_ < std::size_t(size)) break;  // the record is not all here yet
    const std::size_t inner = std::size_t(size) - TlsRecordCipher::kHeaderBytes - TlsRecordCipher::kTagBytes;
    const bool direct = inner <= into.size() - got;
    if (!direct && got > 0) break;
    std::uint8_t* out = direct ? p + got : pending_.data();
    std::uint8_t type = 0;
    std::size_t length = 0;
    const bool ok = opener_->open(rbuf_.data() + rpos_, std::size_t(size), out, type, length);
    rpos_ += std::size_t(size);
    if (!ok) {
      read_failed_ = error_code(int(ERR_PACK(ERR_LIB_SSL, 0, SSL_R_DECRYPTION_FAILED_OR_BAD_RECORD_MAC)),
                                asio::error::get_ssl_category());
    } else if (type == TlsRecordCipher::kApplicationData) {
      if (direct) {
        got += length;
      } else {
        pending_pos_ = 0;
        pending_end_ = length;
        serve_pending();
      }
    } else if (type == TlsRecordCipher::kAlert && length == 2 && out[1] == 0) {
      read_failed_ = asio::error::eof;  // close_notify
    } else {
      read_failed_ = asio::ssl::error::unexpected_result;  // another alert, or a post-handshake message
    }
  }
  auto self = shared_from_this();
  if (got > 0 || read_failed_ || into.size() == 0)
    return asio::post(socket_.get_executor(),
                      [self, done, got, e = got > 0 ? error_code() : read_failed_] { done(e, got); });
  fill([this, self, into, done](const error_code& e) {
    if (e) return done(e, 0);
    read_step(into, done);
  });
}

void TlsStream::fill(OnDone next) {
  // Keep what the SSL has not taken yet (normally nothing: it takes all before WANT_READ).
  std::memmove(rbuf_.data(), rbuf_.data() + rpos_, rend_ - rpos_);
  rend_ -= rpos_;
  rpos_ = 0;
  rbuf_.resize(rend_ + kReadBytes);
  socket_.async_read_some(asio::buffer(rbuf_.data() + rend_, kReadBytes),
                          [this, self = shared_from_this(), next](const error_code& e, std::size_t n) {
                            if (e == asio::error::eof) return next(asio::ssl::error::stream_truncated);
                            if (e) return next(e);
                            rend_ += n;
                            next(error_code());
                          });
}

void TlsStream::async_write(std::vector<asio::const_buffer> bytes, OnBytes done) {
  if (failed_) return asio::post(socket_.get_executor(), [done, e = failed_] { done(e, 0); });
  if (!sealer_) return asio::post(socket_.get_executor(), [done] { done(asio::error::not_connected, 0); });
  std::size_t total = 0;
  for (const auto& b : bytes) total += b.size();
  const std::size_t at = produced_.size();
  produced_.resize(at + TlsRecordCipher::sealed_size(total));
  if (!sealer_->seal(bytes, produced_.data() + at)) {  // the records' numbering is lost: no later write either
    produced_.resize(at);
    failed_ = asio::ssl::error::unexpected_result;
    return asio::post(socket_.get_executor(), [done, e = failed_] { done(e, 0); });
  }
  flush([done, total](const error_code& e) { done(e, e ? 0 : total); });
}

void TlsStream::flush(OnDone done) {
  if (failed_) return asio::post(socket_.get_executor(), [done, e = failed_] { done(e); });
  if (!sending_ && produced_.empty()) return asio::post(socket_.get_executor(), [done] { done(error_code()); });
  drained_.push_back(std::move(done));
  if (!sending_) start_send();
}

void TlsStream::start_send() {
  sending_ = true;
  wbuf_.swap(produced_);  // no copy; both keep their capacity for the next batch
  produced_.clear();
  // One call for the whole batch (Asio's default hands the kernel 64 KiB per call).
  const auto whole = [](const error_code& e, std::size_t) -> std::size_t { return e ? 0 : std::size_t(1) << 30; };
  asio::async_write(socket_, asio::buffer(wbuf_), whole,
                    [this, self = shared_from_this()](const error_code& e, std::size_t) {
                      sending_ = false;
                      if (e) failed_ = e;
                      if (!e && !produced_.empty()) return start_send();  // bytes produced meanwhile go next
                      auto drained = std::move(drained_);
                      drained_.clear();
                      for (const auto& f : drained) f(e);
                    });
}

}  // namespace geotrain::real
