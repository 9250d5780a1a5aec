// Shared-secret authentication (HMAC-SHA256, OpenSSL) for real-mode links.
// TCP: the accepting side sends a random nonce; the connecting side answers
// with its node id, its own nonce and HMAC(secret, "geotrain-client" | server
// nonce | node id); the accepting side checks it and answers HMAC(secret,
// "geotrain-server" | client nonce), so each side proves the secret.
// UDP: each datagram carries a truncated HMAC of its contents.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace geotrain::real {

using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kNonceBytes = 32;
constexpr std::size_t kMacBytes = 32;
constexpr std::size_t kDatagramMacBytes = 16;

Bytes random_bytes(std::size_t n);
Bytes hmac_sha256(const std::string& secret, const Bytes& data);
// Constant-time comparison of the first n bytes.
bool equal_ct(const std::uint8_t* a, const std::uint8_t* b, std::size_t n);

Bytes client_proof(const std::string& secret, const Bytes& server_nonce, std::int32_t node);
Bytes server_proof(const std::string& secret, const Bytes& client_nonce);

// Reads a secret file (trailing newline stripped). Throws std::runtime_error if
// missing or empty.
std::string read_secret_file(const std::string& path);
// Writes a fresh random secret (64 hex digits), readable by the owner only.
void write_secret_file(const std::string& path);

}  // namespace geotrain::real
