// Small text helpers shared by messages and listings.
#pragma once

#include <string>
#include <vector>

namespace geotrain {

// The items separated by sep: {"a", "b"} -> "a, b".
inline std::string joined(const std::vector<std::string>& items, const std::string& sep = ", ") {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

}  // namespace geotrain
