// Reading user-edited JSON with errors a user can act on. A JsonReader wraps one
// JSON object at a known JSON Pointer path in a known file. Every getter
// validates type and range and records the value it used (default included)
// into a "resolved" JSON tree, so a run can report exactly what it ran with.
// finish() rejects keys nobody asked for, listing the valid ones.
//
// Errors are ConfigError: "<file>: <pointer>: <what was expected>, got <value>".
#pragma once
#include <cstdint>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/base/registry.h"

namespace geotrain {

class ConfigError : public std::runtime_error {
 public:
  ConfigError(const std::string& file, const std::string& pointer, const std::string& detail);
};

// `path` as named inside the file `referring_file`: absolute paths stay, relative
// ones are taken from that file's directory.
std::string resolve_path(const std::string& referring_file, const std::string& path);

// Parses a JSON file; a syntax error becomes a ConfigError with line and column.
nlohmann::json load_json_file(const std::string& path);

// Applies "a.b.0.c=value" (value parsed as JSON, else taken as a string) to j.
// Throws ConfigError naming the --set argument on a malformed assignment.
void apply_set(nlohmann::json& j, const std::string& assignment);

class JsonReader {
 public:
  static constexpr double kInf = std::numeric_limits<double>::infinity();

  // Fails (ConfigError) unless `j` is an object. `resolved` receives what is read.
  JsonReader(const nlohmann::json& j, std::string file, std::string pointer, nlohmann::json* resolved);

  bool has(const std::string& key) const;
  double number(const std::string& key, std::optional<double> def, double min = -kInf, double max = kInf);
  // Like number() but the value must be > min (exclusive).
  double positive(const std::string& key, std::optional<double> def);
  std::int64_t integer(const std::string& key, std::optional<std::int64_t> def, std::int64_t min,
                       std::int64_t max = std::numeric_limits<std::int64_t>::max());
  std::string string(const std::string& key, std::optional<std::string> def,
                     const std::vector<std::string>& allowed = {});
  bool boolean(const std::string& key, std::optional<bool> def);
  // A number, or an array of numbers; each in [min, max].
  std::vector<double> numbers(const std::string& key, double min, double max);
  std::vector<std::int64_t> integers(const std::string& key, std::int64_t min, std::int64_t max);
  // An array of strings (`what` names one in errors, e.g. "\"path=value\" string"); absent = none.
  std::vector<std::string> strings(const std::string& key, const std::string& what);
  JsonReader object(const std::string& key);  // required
  // An object, or an empty one when the key is absent.
  JsonReader object_or_empty(const std::string& key);
  std::vector<JsonReader> objects(const std::string& key);  // array of objects; absent = none
  // Marks the key used and returns it unvalidated (null json when absent).
  const nlohmann::json& raw(const std::string& key);
  // Rejects every key not read so far.
  void finish() const;

  [[noreturn]] void fail(const std::string& key, const std::string& detail) const;
  std::string pointer(const std::string& key) const;
  const std::string& file() const { return file_; }

 private:
  const nlohmann::json& take(const std::string& key);
  const nlohmann::json* j_;
  std::string file_, pointer_;
  nlohmann::json* out_;
  std::set<std::string> used_;
  mutable std::set<std::string> asked_;    // every key a getter looked for: the valid ones
  std::shared_ptr<nlohmann::json> empty_;  // backing for object_or_empty
};

// Reads every parameter of `specs` from r (integers and numbers within their
// ranges), defaults filled in for the absent ones.
NumericParams read_numeric_params(JsonReader& r, const std::vector<NumericParam>& specs);

}  // namespace geotrain
