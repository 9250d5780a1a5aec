#include "real/auth.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "core/json/json_text.h"

namespace geotrain::real {

Bytes random_bytes(std::size_t n) {
  Bytes b(n);
  if (RAND_bytes(b.data(), int(n)) != 1) throw std::runtime_error("RAND_bytes failed");
  return b;
}

Bytes hmac_sha256(const std::string& secret, const Bytes& data) {
  Bytes out(EVP_MAX_MD_SIZE);
  unsigned int len = 0;
  if (HMAC(EVP_sha256(), secret.data(), int(secret.size()), data.data(), data.size(), out.data(), &len) == nullptr)
    throw std::runtime_error("HMAC failed");
  out.resize(len);
  return out;
}

bool equal_ct(const std::uint8_t* a, const std::uint8_t* b, std::size_t n) { return CRYPTO_memcmp(a, b, n) == 0; }

namespace {
Bytes tagged(const char* tag, const Bytes& nonce) {
  Bytes d(tag, tag + std::char_traits<char>::length(tag));
  d.insert(d.end(), nonce.begin(), nonce.end());
  return d;
}
}  // namespace

Bytes client_proof(const std::string& secret, const Bytes& server_nonce, std::int32_t node) {
  Bytes d = tagged("geotrain-client", server_nonce);
  const auto* p = reinterpret_cast<const std::uint8_t*>(&node);
  d.insert(d.end(), p, p + sizeof node);
  return hmac_sha256(secret, d);
}

Bytes server_proof(const std::string& secret, const Bytes& client_nonce) {
  return hmac_sha256(secret, tagged("geotrain-server", client_nonce));
}

std::string read_secret_file(const std::string& path) {
  std::string s = read_text_file(path, 4096);  // a regular file of a few bytes, never /dev/zero read forever
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  if (s.size() < 16) throw std::runtime_error(path + ": shared secret shorter than 16 bytes");
  return s;
}

void write_secret_file(const std::string& path) {
  std::ofstream s(path);
  if (!s) throw std::runtime_error(path + ": cannot write the shared secret");
  // Owner-only before the secret is in it: never readable by others, not even briefly.
  std::filesystem::permissions(path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  for (auto c : random_bytes(32)) s << "0123456789abcdef"[c >> 4] << "0123456789abcdef"[c & 15];
  s << "\n";
  s.close();
  if (!s) throw std::runtime_error(path + ": cannot write the shared secret");
}

}  // namespace geotrain::real
