// TLS links at the transport level: a frame crosses an OutboundLink ->
// InboundLink pair in TLS through a tapping proxy (the bytes on the wire must
// not contain the plaintext), a certificate from the wrong CA is refused, and
// plain frames sent to a TLS port are refused. TlsStream's own record layer
// talks to OpenSSL's, in each TLS 1.3 suite, both ways.
#include "real/tls.h"

#include <gtest/gtest.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <boost/asio.hpp>
#include <filesystem>
#include <optional>
#include <thread>

#include "real/inbound_link.h"
#include "real/outbound_link.h"
#include "real/tls_stream.h"

namespace geotrain::real {
namespace {

namespace asio = boost::asio;
using asio::ip::tcp;
const std::string kSecret = "tls-test-secret";

const std::string dir = "/tmp/geotrain-tls-test-" + std::to_string(::getpid());
struct RemoveDirAtExit {
  ~RemoveDirAtExit() { std::filesystem::remove_all(dir); }
} remove_dir_at_exit;

TlsSettings fresh_certificate(const std::string& name) {
  std::filesystem::create_directories(dir);
  TlsSettings t;
  t.links = TlsLinks::kAll;
  t.cert_file = t.ca_file = dir + "/" + name + "-cert.pem";
  t.key_file = dir + "/" + name + "-key.pem";
  write_self_signed_certificate(t.cert_file, t.key_file);
  return t;
}

// Forwards one connection from its own port to `target`, keeping a copy of
// every byte the client sent.
struct Tap {
  Tap(asio::io_context& io, std::uint16_t target)
      : acc(io, {asio::ip::make_address("127.0.0.1"), 0}), up(io), to(target) {
    acc.async_accept([this](const boost::system::error_code& e, tcp::socket s) {
      if (e) return;
      down.emplace(std::move(s));
      up.connect({asio::ip::make_address("127.0.0.1"), to});
      pipe(*down, up, &seen);
      pipe(up, *down, nullptr);
    });
  }
  void pipe(tcp::socket& from, tcp::socket& into, std::vector<std::uint8_t>* record) {
    auto buf = std::make_shared<std::array<std::uint8_t, 65536>>();
    from.async_read_some(asio::buffer(*buf),
                         [this, &from, &into, record, buf](const boost::system::error_code& e, std::size_t n) {
                           if (e) return;
                           if (record) {
                             if (flip_at >= record->size() && flip_at < record->size() + n)
                               (*buf)[flip_at - record->size()] ^= 0x01;  // tamper with one bit on the wire
                             record->insert(record->end(), buf->begin(), buf->begin() + long(n));
                           }
                           asio::write(into, asio::buffer(*buf, n));
                           pipe(from, into, record);
                         });
  }
  std::uint16_t port() const { return acc.local_endpoint().port(); }
  tcp::acceptor acc;
  std::optional<tcp::socket> down;
  tcp::socket up;
  std::uint16_t to;
  std::vector<std::uint8_t> seen;
  std::size_t flip_at = std::size_t(-1);  // client byte to corrupt (none by default)
};

// A listener that turns each accepted connection into an InboundLink.
struct Server {
  Server(asio::io_context& io, asio::ssl::context* tls) : acc(io, {asio::ip::make_address("127.0.0.1"), 0}), tls(tls) {
    accept();
  }
  void accept() {
    acc.async_accept([this](const boost::system::error_code& e, tcp::socket s) {
      if (e) return;
      auto l = std::make_shared<InboundLink>(
          std::move(s), tls, kSecret, 2, 8 << 20, [](std::int32_t, bool) { return std::string(); },
          [this](std::int32_t, Frame&& f) { bodies.push_back(std::move(f.body)); },
          [this](InboundLink*, const std::string& why) { closed.push_back(why); });
      links.push_back(l);
      l->start();
      accept();
    });
  }
  std::uint16_t port() const { return acc.local_endpoint().port(); }
  tcp::acceptor acc;
  asio::ssl::context* tls;
  std::vector<std::shared_ptr<InboundLink>> links;
  std::vector<Bytes> bodies;
  std::vector<std::string> closed;
};

std::shared_ptr<const ByteSpans> spans_of(const Bytes& b) {
  return std::make_shared<const ByteSpans>(ByteSpans::of(b));
}

void run_until(asio::io_context& io, const std::function<bool()>& done) {
  for (int i = 0; i < 2000 && !done(); ++i) io.run_for(std::chrono::milliseconds(5));
}

TEST(Tls, FramesCrossEncryptedAndArriveIntact) {
  const TlsSettings t = fresh_certificate("ok");
  auto server_ctx = tls_server_context(t);
  auto client_ctx = tls_client_context(t);
  asio::io_context io;
  Server server(io, server_ctx.get());
  Tap tap(io, server.port());
  Endpoint to;
  to.tls_port = tap.port();
  std::string failed;
  auto link = std::make_shared<OutboundLink>(
      io, 1, kSecret, to, client_ctx.get(), [](std::size_t) {}, [&](const std::string& why) { failed = why; });
  const std::string text = "a recognisable plaintext that must never appear on the wire";
  const Bytes body(text.begin(), text.end());
  link->send(FrameType::kHeartbeat, spans_of(body), 0);
  run_until(io, [&] { return !server.bodies.empty() || !failed.empty(); });
  ASSERT_EQ(failed, "");
  ASSERT_EQ(server.bodies.size(), 1u);
  EXPECT_EQ(server.bodies[0], body);
  ASSERT_GT(tap.seen.size(), body.size());  // the tap saw the traffic ...
  EXPECT_EQ(std::search(tap.seen.begin(), tap.seen.end(), body.begin(), body.end()), tap.seen.end())
      << "plaintext visible on a TLS link";  // ... but not the plaintext
  EXPECT_EQ(tap.seen[0], 0x16) << "the first byte on the wire must open a TLS handshake record";
  link->close();
}

// Frames from one byte to several write pieces, back to back: every record
// boundary and batch split is crossed, and each frame arrives whole and in order
// (on TLS links the frame checksum is skipped: the AEAD tags check the bytes).
// One flipped bit on the wire instead closes the link, delivering nothing false.
TEST(Tls, FramesOfEverySizeArriveInOrderAndTamperingClosesTheLink) {
  const TlsSettings t = fresh_certificate("sizes");
  auto server_ctx = tls_server_context(t);
  auto client_ctx = tls_client_context(t);
  std::vector<Bytes> sent;
  for (std::size_t n : {1u, 16383u, 16384u, 16385u, (3u << 20) + 7u, 5u, 1000u}) {
    Bytes b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = std::uint8_t(i * 7 + n);
    sent.push_back(std::move(b));
  }
  for (bool tamper : {false, true}) {
    asio::io_context io;
    Server server(io, server_ctx.get());
    Tap tap(io, server.port());
    if (tamper) tap.flip_at = 2'000'000;  // inside the large frame, well after the handshake
    Endpoint to;
    to.tls_port = tap.port();
    std::string failed;
    auto link = std::make_shared<OutboundLink>(
        io, 1, kSecret, to, client_ctx.get(), [](std::size_t) {}, [&](const std::string& why) { failed = why; });
    for (const Bytes& b : sent) link->send(FrameType::kHeartbeat, spans_of(b), 0);
    run_until(io, [&] { return server.bodies.size() == sent.size() || !server.closed.empty() || !failed.empty(); });
    if (!tamper) {
      ASSERT_EQ(failed, "");
      EXPECT_EQ(server.bodies, sent);
    } else {
      ASSERT_EQ(server.closed.size(), 1u) << "a corrupted record must close the link";
      EXPECT_LT(server.bodies.size(), 5u);  // nothing from the large frame on was delivered
      for (std::size_t i = 0; i < server.bodies.size(); ++i) EXPECT_EQ(server.bodies[i], sent[i]);
    }
    link->close();
  }
}

// A peer that is OpenSSL alone (its own record layer, blocking on a socket):
// it sends `to_send`, reads `want` bytes back, then closes with close_notify.
std::vector<std::uint8_t> openssl_peer(std::uint16_t port, const TlsSettings& t, const char* suite,
                                       const std::vector<std::uint8_t>& to_send, std::size_t want) {
  std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> ctx(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
  SSL_CTX_set_min_proto_version(ctx.get(), TLS1_3_VERSION);
  SSL_CTX_set_ciphersuites(ctx.get(), suite);
  SSL_CTX_load_verify_locations(ctx.get(), t.ca_file.c_str(), nullptr);
  SSL_CTX_set_verify(ctx.get(), SSL_VERIFY_PEER, nullptr);
  asio::io_context io;
  tcp::socket s(io);
  s.connect({asio::ip::make_address("127.0.0.1"), port});
  std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(ctx.get()), SSL_free);
  SSL_set_fd(ssl.get(), s.native_handle());
  std::vector<std::uint8_t> got(want);
  if (SSL_connect(ssl.get()) != 1) return {};
  std::size_t n = 0;
  if (SSL_write_ex(ssl.get(), to_send.data(), to_send.size(), &n) != 1) return {};
  for (std::size_t at = 0; at < want; at += n)
    if (SSL_read_ex(ssl.get(), got.data() + at, want - at, &n) != 1) return {};
  SSL_shutdown(ssl.get());
  return got;
}

TEST(Tls, RecordsInterworkWithOpenSslInEverySuite) {
  const TlsSettings t = fresh_certificate("interop");
  auto server_ctx = tls_server_context(t);
  std::vector<std::uint8_t> up(100'000), down(70'000);
  for (std::size_t i = 0; i < up.size(); ++i) up[i] = std::uint8_t(i * 13 + 1);
  for (std::size_t i = 0; i < down.size(); ++i) down[i] = std::uint8_t(i * 7 + 3);
  for (const char* suite : {"TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256"}) {
    SCOPED_TRACE(suite);
    asio::io_context io;
    tcp::acceptor acc(io, {asio::ip::make_address("127.0.0.1"), 0});
    std::vector<std::uint8_t> peer_got;
    std::thread peer([&] { peer_got = openssl_peer(acc.local_endpoint().port(), t, suite, up, down.size()); });
    auto stream = std::make_shared<TlsStream>(acc.accept(), *server_ctx, TlsStream::Role::server);
    std::vector<std::uint8_t> got(up.size() + 1);  // one byte of room more than the peer sends
    std::size_t have = 0;
    boost::system::error_code end;
    std::function<void()> read = [&] {
      // Small reads as well as large ones: records are served from the pending buffer too.
      const std::size_t room = std::min<std::size_t>(have % 3 == 0 ? 7 : 40'000, got.size() - have);
      stream->async_read_some(asio::buffer(got.data() + have, room), [&](const boost::system::error_code& e,
                                                                         std::size_t n) {
        have += n;
        if (e) {
          end = e;
          return;
        }
        if (have == up.size())
          stream->async_write({asio::buffer(down.data(), 1000), asio::buffer(down.data() + 1000, down.size() - 1000)},
                              [](const boost::system::error_code&, std::size_t) {});
        read();
      });
    };
    stream->async_handshake([&](const boost::system::error_code& e) {
      ASSERT_FALSE(e) << e.message();
      read();
    });
    io.run();
    stream->socket().close();  // a peer still waiting (after a failure here) sees the end
    peer.join();
    EXPECT_EQ(have, up.size());
    EXPECT_TRUE(std::equal(up.begin(), up.end(), got.begin())) << "OpenSSL's records, opened here";
    EXPECT_EQ(peer_got, down) << "records sealed here, opened by OpenSSL";
    EXPECT_EQ(end, asio::error::eof) << "close_notify must read as a clean end: " << end.message();
  }
}

TEST(Tls, ACertificateFromAnotherCaIsRefused) {
  const TlsSettings server_cert = fresh_certificate("server"), other = fresh_certificate("other");
  auto server_ctx = tls_server_context(server_cert);
  auto client_ctx = tls_client_context(other);  // trusts only the other CA
  asio::io_context io;
  Server server(io, server_ctx.get());
  Endpoint to;
  to.tls_port = server.port();
  std::string failed;
  auto link = std::make_shared<OutboundLink>(
      io, 1, kSecret, to, client_ctx.get(), [](std::size_t) {}, [&](const std::string& why) { failed = why; });
  link->send(FrameType::kHeartbeat, spans_of(Bytes{1, 2, 3}), 0);
  run_until(io, [&] { return !failed.empty(); });
  EXPECT_NE(failed.find("TLS handshake"), std::string::npos) << failed;
  EXPECT_TRUE(server.bodies.empty());
}

TEST(Tls, PlainFramesOnATlsPortAreRefused) {
  const TlsSettings t = fresh_certificate("plain");
  auto server_ctx = tls_server_context(t);
  asio::io_context io;
  Server server(io, server_ctx.get());
  tcp::socket s(io);
  s.connect({asio::ip::make_address("127.0.0.1"), server.port()});
  asio::write(s, asio::buffer(make_frame(FrameType::kHeartbeat, Bytes(64, 7))));
  run_until(io, [&] { return !server.closed.empty(); });
  ASSERT_FALSE(server.closed.empty());
  EXPECT_NE(server.closed[0].find("TLS handshake failed"), std::string::npos) << server.closed[0];
  EXPECT_TRUE(server.bodies.empty());
}

TEST(Tls, UnreadableCertificateFilesAreNamed) {
  TlsSettings t;
  t.cert_file = t.ca_file = t.key_file = "/nonexistent/cert.pem";
  try {
    tls_server_context(t);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/cert.pem"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace geotrain::real
