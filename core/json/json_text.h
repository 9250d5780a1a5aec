// Strict parsing of user-edited JSON text: what nlohmann::json accepts silently
// but a user would not mean is an error here, with the JSON Pointer path.
//  - a key given twice in one object (nlohmann keeps the last one);
//  - nesting deeper than kMaxJsonDepth (deep input can exhaust the stack of any
//    recursive walk over the tree, copies and dumps included);
//  - a file that is not a regular file (/dev/zero, a FIFO) or is larger than
//    kMaxJsonFileBytes: reading stops at the limit instead of running forever.
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace geotrain {

constexpr std::size_t kMaxJsonDepth = 64;
constexpr std::size_t kMaxJsonFileBytes = std::size_t(16) << 20;

// Parses `text`; `source` names it in errors (a file name or "--set ...").
// Throws ConfigError: malformed JSON (with line and column), duplicate keys,
// excessive depth.
nlohmann::json parse_json_text(const std::string& text, const std::string& source);

// A key as one JSON Pointer token ('~' -> "~0", '/' -> "~1").
std::string json_pointer_escape(const std::string& key);

// Reads a whole regular file of at most `max_bytes`. Throws ConfigError naming it.
std::string read_text_file(const std::string& path, std::size_t max_bytes = kMaxJsonFileBytes);

}  // namespace geotrain
