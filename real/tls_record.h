// TLS 1.3 record protection (RFC 8446 section 5.2) for one direction of a
// connection, once OpenSSL's handshake is done: what the kernel's TLS offload
// (kTLS) does, in the process. OpenSSL 3.0's own record layer copies every
// byte twice on each side (into its record buffer, and between that buffer
// and ours); with the cipher, those copies made TLS cost more than twice
// plain TCP on loopback, and kTLS is not built into every kernel we run on.
// Here a writer encrypts straight from the caller's pieces into the bytes it
// sends, and a reader decrypts straight from the bytes it received into the
// caller's buffer. The records on the wire are ordinary TLS 1.3 records: an
// OpenSSL peer reads them (tests/tls_test.cc checks both directions).
//
// Keys come from the direction's application traffic secret
// (HKDF-Expand-Label, section 7.3); the AEAD and hash are the negotiated
// suite's. Sequence numbers start at 0, so the handshake must not have sent
// a record under these keys yet (no session tickets: see TlsStream).
#pragma once
#include <openssl/evp.h>
#include <openssl/ssl.h>

#include <boost/asio/buffer.hpp>
#include <cstdint>
#include <memory>
#include <vector>

namespace geotrain::real {

class TlsRecordCipher {
 public:
  static constexpr std::size_t kHeaderBytes = 5;
  static constexpr std::size_t kTagBytes = 16;
  static constexpr std::size_t kMaxContent = std::size_t(1) << 14;  // a record's plaintext, at most
  // The largest record a peer may send: content, type byte, padding, tag.
  static constexpr std::size_t kMaxRecord = kHeaderBytes + kMaxContent + 256;
  enum ContentType : std::uint8_t { kAlert = 21, kHandshake = 22, kApplicationData = 23 };

  // Throws std::runtime_error if the suite is not an AEAD OpenSSL can run.
  TlsRecordCipher(const SSL_CIPHER* suite, const std::vector<std::uint8_t>& traffic_secret);

  // Bytes that sealing `content` bytes of application data produces.
  static std::size_t sealed_size(std::size_t content);
  // Seals the pieces, in order, as full-size application-data records into
  // `out` (sealed_size(total) bytes). Returns false if the cipher fails.
  bool seal(const std::vector<boost::asio::const_buffer>& pieces, std::uint8_t* out);

  // The size of the record that starts at `p`, 0 if fewer than its header's
  // bytes are there yet; -1 if the header is not a TLS 1.3 protected record.
  static long record_size(const std::uint8_t* p, std::size_t available);
  // Opens one whole record into `out` (record_size - kHeaderBytes - kTagBytes
  // bytes of room). On success sets its content type and content length and
  // returns true; false if it fails authentication or carries no content type.
  bool open(const std::uint8_t* record, std::size_t size, std::uint8_t* out, std::uint8_t& type, std::size_t& length);

 private:
  void set_nonce(bool encrypt);

  struct CtxFree {
    void operator()(EVP_CIPHER_CTX* c) const { EVP_CIPHER_CTX_free(c); }
  };
  std::unique_ptr<EVP_CIPHER_CTX, CtxFree> ctx_;
  std::uint8_t iv_[12] = {};
  std::uint64_t seq_ = 0;
};

}  // namespace geotrain::real
