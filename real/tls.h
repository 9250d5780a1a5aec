// TLS for real-mode TCP links (Boost.Asio over OpenSSL): contexts built from
// the PEM files a deployment names, and a self-signed certificate for
// `geotrain launch`. TLS adds confidentiality and integrity on the wire; who a
// peer is stays proved by the HMAC handshake that runs inside the TLS channel,
// so certificates are checked against the CA but not against host names.
#pragma once
#include <boost/asio/ssl/context.hpp>
#include <memory>
#include <string>

#include "real/real_config.h"

namespace geotrain::real {

// TLS 1.3 only. Throw std::runtime_error naming the file that cannot be used.
std::unique_ptr<boost::asio::ssl::context> tls_server_context(const TlsSettings& s);
std::unique_ptr<boost::asio::ssl::context> tls_client_context(const TlsSettings& s);

// Writes a fresh P-256 key (owner-only permissions) and a self-signed
// certificate for it (CN=geotrain, valid 30 days), which then serves as its own CA.
void write_self_signed_certificate(const std::string& cert_file, const std::string& key_file);

}  // namespace geotrain::real
