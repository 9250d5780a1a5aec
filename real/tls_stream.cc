#include "real/tls_stream.h"

#include <openssl/err.h>

#include <algorithm>
#include <boost/asio/ssl/error.hpp>
#include <cstring>
#include <stdexcept>

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

TlsStream::TlsStream(Socket s, asio::ssl::context& ctx, Role role)
    : socket_(std::move(s)), ssl_(SSL_new(ctx.native_handle())) {
  if (!ssl_) throw std::runtime_error("cannot create a TLS connection");
  BIO* bio = BIO_new(bio_method());
  BIO_set_data(bio, this);
  SSL_set_bio(ssl_, bio, bio);  // ssl_ owns it from here
  if (role == Role::client)
    SSL_set_connect_state(ssl_);
  else
    SSL_set_accept_state(ssl_);
}

TlsStream::~TlsStream() { SSL_free(ssl_); }

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
    if (r == 1 || failure || sent) return done(failure ? failure : sent);
    if (e == SSL_ERROR_WANT_READ)
      fill([this, self, done](const error_code& got) {
        if (got) return done(got);
        handshake_step(done);
      });
  });
}

void TlsStream::async_read_some(asio::mutable_buffer into, OnBytes done) { read_step(into, std::move(done)); }

void TlsStream::read_step(asio::mutable_buffer into, OnBytes done) {
  auto* p = static_cast<std::uint8_t*>(into.data());
  std::size_t got = 0;
  int last = 1;
  ERR_clear_error();
  while (got < into.size()) {  // decrypt every whole record already received
    std::size_t n = 0;
    last = SSL_read_ex(ssl_, p + got, into.size() - got, &n);
    if (last <= 0) break;
    got += n;
  }
  const bool want_more = last <= 0 && SSL_get_error(ssl_, last) == SSL_ERROR_WANT_READ;
  const error_code failure = (got > 0 || last > 0 || want_more) ? error_code() : ssl_error(last);
  auto self = shared_from_this();
  if (!produced_.empty()) flush([](const error_code&) {});  // e.g. a reply to a key update
  if (got > 0 || failure || into.size() == 0)
    return asio::post(socket_.get_executor(), [self, done, failure, got] { done(failure, got); });
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
  std::size_t total = 0;
  ERR_clear_error();
  for (const auto& b : bytes) {
    const auto* p = static_cast<const std::uint8_t*>(b.data());
    for (std::size_t off = 0; off < b.size();) {  // the BIO takes everything: no partial writes
      std::size_t n = 0;
      const int r = SSL_write_ex(ssl_, p + off, b.size() - off, &n);
      if (r <= 0) {
        const error_code e = ssl_error(r);
        return asio::post(socket_.get_executor(), [done, e, total] { done(e, total); });
      }
      off += n;
      total += n;
    }
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
