// libFuzzer target: the JSON loader: strict parsing (core/json/json_text.h),
// a scenario read from the tree (every getter, bound and path-precise error),
// and a --set assignment built from the same bytes.
#include <cstdint>
#include <string>

#include "core/config/scenario.h"
#include "core/json/json_reader.h"
#include "core/json/json_text.h"

using namespace geotrain;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    nlohmann::json j = parse_json_text(text, "fuzz.json");
    (void)j.dump();
    try {
      apply_set(j, text.substr(0, 64));
    } catch (const ConfigError&) {
    }
    // The topology inline (a path would read the file system).
    if (j.is_object() && j.contains("topology") && j["topology"].is_string()) j.erase("topology");
    (void)read_scenario(j, "/nonexistent/fuzz.json");
  } catch (const ConfigError&) {
  } catch (const std::invalid_argument&) {
  }
  return 0;
}
