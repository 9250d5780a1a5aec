#include "real/tls_record.h"

#include <openssl/core_names.h>
#include <openssl/kdf.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace geotrain::real {

namespace {

constexpr std::uint8_t kLegacyVersion[2] = {0x03, 0x03};  // TLS 1.2 on the wire, as TLS 1.3 records say
constexpr std::size_t kIvBytes = 12;

struct KdfFree {
  void operator()(EVP_KDF* k) const { EVP_KDF_free(k); }
  void operator()(EVP_KDF_CTX* c) const { EVP_KDF_CTX_free(c); }
};

// HKDF-Expand-Label(secret, label, "", n) of RFC 8446 section 7.1.
std::vector<std::uint8_t> expand_label(const EVP_MD* md, const std::vector<std::uint8_t>& secret,
                                       const std::string& label, std::size_t n) {
  const std::string full = "tls13 " + label;
  std::vector<std::uint8_t> info = {std::uint8_t(n >> 8), std::uint8_t(n), std::uint8_t(full.size())};
  info.insert(info.end(), full.begin(), full.end());
  info.push_back(0);  // empty context
  std::unique_ptr<EVP_KDF, KdfFree> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr));
  std::unique_ptr<EVP_KDF_CTX, KdfFree> ctx(kdf ? EVP_KDF_CTX_new(kdf.get()) : nullptr);
  if (!ctx) throw std::runtime_error("TLS: OpenSSL has no HKDF");
  int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
  // OSSL_PARAM takes non-const pointers but only reads through them here: no copy of the secret.
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>(EVP_MD_get0_name(md)), 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<std::uint8_t*>(secret.data()), secret.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info.data(), info.size()), OSSL_PARAM_construct_end()};
  std::vector<std::uint8_t> out(n);
  if (EVP_KDF_derive(ctx.get(), out.data(), n, params) != 1)
    throw std::runtime_error("TLS: cannot derive the record keys");
  return out;
}

}  // namespace

TlsRecordCipher::TlsRecordCipher(const SSL_CIPHER* suite, const std::vector<std::uint8_t>& traffic_secret)
    : ctx_(EVP_CIPHER_CTX_new()) {
  const EVP_CIPHER* aead = suite ? EVP_get_cipherbynid(SSL_CIPHER_get_cipher_nid(suite)) : nullptr;
  const EVP_MD* md = suite ? SSL_CIPHER_get_handshake_digest(suite) : nullptr;
  if (!ctx_ || !aead || !md || !(EVP_CIPHER_get_flags(aead) & EVP_CIPH_FLAG_AEAD_CIPHER) ||
      EVP_CIPHER_get_iv_length(aead) != int(kIvBytes))
    throw std::runtime_error("TLS: the negotiated cipher suite is not an AEAD this build can run");
  std::vector<std::uint8_t> key = expand_label(md, traffic_secret, "key", std::size_t(EVP_CIPHER_get_key_length(aead)));
  const std::vector<std::uint8_t> iv = expand_label(md, traffic_secret, "iv", kIvBytes);
  std::copy(iv.begin(), iv.end(), iv_);
  const bool ok = EVP_CipherInit_ex(ctx_.get(), aead, nullptr, key.data(), nullptr, -1) == 1;
  OPENSSL_cleanse(key.data(), key.size());
  if (!ok) throw std::runtime_error("TLS: cannot key the record cipher");
}

void TlsRecordCipher::set_nonce(bool encrypt) {
  std::uint8_t nonce[kIvBytes];
  std::memcpy(nonce, iv_, kIvBytes);
  for (int i = 0; i < 8; ++i) nonce[kIvBytes - 1 - i] ^= std::uint8_t(seq_ >> (8 * i));
  EVP_CipherInit_ex(ctx_.get(), nullptr, nullptr, nullptr, nonce, encrypt ? 1 : 0);
  ++seq_;
}

std::size_t TlsRecordCipher::sealed_size(std::size_t content) {
  const std::size_t records = (content + kMaxContent - 1) / kMaxContent;
  return content + records * (kHeaderBytes + 1 + kTagBytes);
}

bool TlsRecordCipher::seal(const std::vector<boost::asio::const_buffer>& pieces, std::uint8_t* out) {
  std::size_t total = 0;
  for (const auto& b : pieces) total += b.size();
  auto piece = pieces.begin();
  std::size_t at = 0;  // bytes of *piece already sealed
  int n = 0;
  while (total > 0) {
    const std::size_t content = std::min(total, kMaxContent);
    const std::size_t length = content + 1 + kTagBytes;
    std::uint8_t* header = out;
    header[0] = kApplicationData;
    header[1] = kLegacyVersion[0];
    header[2] = kLegacyVersion[1];
    header[3] = std::uint8_t(length >> 8);
    header[4] = std::uint8_t(length);
    set_nonce(true);
    if (EVP_EncryptUpdate(ctx_.get(), nullptr, &n, header, int(kHeaderBytes)) != 1) return false;  // the AAD
    out += kHeaderBytes;
    for (std::size_t left = content; left > 0;) {
      while (at == piece->size()) ++piece, at = 0;
      const std::size_t k = std::min(left, piece->size() - at);
      if (EVP_EncryptUpdate(ctx_.get(), out, &n, static_cast<const std::uint8_t*>(piece->data()) + at, int(k)) != 1)
        return false;
      out += k;
      at += k;
      left -= k;
    }
    const std::uint8_t type = kApplicationData;  // TLSInnerPlaintext's type, no padding
    if (EVP_EncryptUpdate(ctx_.get(), out, &n, &type, 1) != 1 || EVP_EncryptFinal_ex(ctx_.get(), out + 1, &n) != 1 ||
        EVP_CIPHER_CTX_ctrl(ctx_.get(), EVP_CTRL_AEAD_GET_TAG, int(kTagBytes), out + 1) != 1)
      return false;
    out += 1 + kTagBytes;
    total -= content;
  }
  return true;
}

long TlsRecordCipher::record_size(const std::uint8_t* p, std::size_t available) {
  if (available < kHeaderBytes) return 0;
  const std::size_t length = std::size_t(p[3]) << 8 | p[4];
  if (p[0] != kApplicationData || p[1] != kLegacyVersion[0] || p[2] != kLegacyVersion[1] ||
      length > kMaxRecord - kHeaderBytes || length < 1 + kTagBytes)
    return -1;
  return long(kHeaderBytes + length);
}

bool TlsRecordCipher::open(const std::uint8_t* record, std::size_t size, std::uint8_t* out, std::uint8_t& type,
                           std::size_t& length) {
  const std::size_t inner = size - kHeaderBytes - kTagBytes;
  int n = 0;
  set_nonce(false);
  std::uint8_t tag[kTagBytes];
  std::memcpy(tag, record + size - kTagBytes, kTagBytes);
  if (EVP_DecryptUpdate(ctx_.get(), nullptr, &n, record, int(kHeaderBytes)) != 1 ||
      EVP_DecryptUpdate(ctx_.get(), out, &n, record + kHeaderBytes, int(inner)) != 1 ||
      EVP_CIPHER_CTX_ctrl(ctx_.get(), EVP_CTRL_AEAD_SET_TAG, int(kTagBytes), tag) != 1 ||
      EVP_DecryptFinal_ex(ctx_.get(), out + inner, &n) != 1)
    return false;
  std::size_t end = inner;
  while (end > 0 && out[end - 1] == 0) --end;  // strip the padding
  if (end == 0) return false;                  // no content type: a protocol violation
  type = out[end - 1];
  length = end - 1;
  return true;
}

}  // namespace geotrain::real
