#include "real/tls.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "real/tls_stream.h"

namespace geotrain::real {

namespace ssl = boost::asio::ssl;

namespace {

std::unique_ptr<ssl::context> tls13_context(ssl::context::method m) {
  auto ctx = std::make_unique<ssl::context>(m);
  TlsStream::configure(ctx->native_handle());
  return ctx;
}

// Runs `load`, turning Asio's error into one that names the file.
template <class F>
void load_pem(const std::string& what, const std::string& file, F load) {
  boost::system::error_code ec;
  load(ec);
  if (ec) throw std::runtime_error("TLS " + what + " \"" + file + "\": " + ec.message());
}

struct PkeyFree {
  void operator()(EVP_PKEY* p) const { EVP_PKEY_free(p); }
};
struct X509Free {
  void operator()(X509* p) const { X509_free(p); }
};
struct FileClose {
  void operator()(FILE* f) const { std::fclose(f); }
};

std::unique_ptr<FILE, FileClose> open_for_write(const std::string& path) {
  std::unique_ptr<FILE, FileClose> f(std::fopen(path.c_str(), "w"));
  if (!f) throw std::runtime_error("cannot write " + path);
  return f;
}

}  // namespace

std::unique_ptr<ssl::context> tls_server_context(const TlsSettings& s) {
  auto ctx = tls13_context(ssl::context::tls_server);
  load_pem("certificate", s.cert_file, [&](auto& ec) { ctx->use_certificate_chain_file(s.cert_file, ec); });
  load_pem("private key", s.key_file, [&](auto& ec) { ctx->use_private_key_file(s.key_file, ssl::context::pem, ec); });
  return ctx;
}

std::unique_ptr<ssl::context> tls_client_context(const TlsSettings& s) {
  auto ctx = tls13_context(ssl::context::tls_client);
  load_pem("CA", s.ca_file, [&](auto& ec) { ctx->load_verify_file(s.ca_file, ec); });
  ctx->set_verify_mode(ssl::verify_peer);
  return ctx;
}

void write_self_signed_certificate(const std::string& cert_file, const std::string& key_file) {
  std::unique_ptr<EVP_PKEY, PkeyFree> key(EVP_EC_gen("P-256"));
  if (!key) throw std::runtime_error("cannot generate a TLS key");
  std::unique_ptr<X509, X509Free> cert(X509_new());
  X509_set_version(cert.get(), 2);  // v3
  ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), 1);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);  // tolerate a little clock skew
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 30L * 24 * 3600);
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("geotrain"), -1, -1, 0);
  X509_set_issuer_name(cert.get(), name);
  X509_set_pubkey(cert.get(), key.get());
  if (X509_sign(cert.get(), key.get(), EVP_sha256()) == 0) throw std::runtime_error("cannot sign the TLS certificate");
  {
    auto f = open_for_write(key_file);
    std::filesystem::permissions(key_file, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    if (!PEM_write_PrivateKey(f.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr))
      throw std::runtime_error("cannot write " + key_file);
  }
  auto f = open_for_write(cert_file);
  if (!PEM_write_X509(f.get(), cert.get())) throw std::runtime_error("cannot write " + cert_file);
}

}  // namespace geotrain::real
