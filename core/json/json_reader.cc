#include "core/json/json_reader.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "core/json/json_text.h"

namespace geotrain {
namespace {

std::string short_dump(const nlohmann::json& v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

std::string range_text(double min, double max) {
  std::ostringstream o;
  o << std::setprecision(15);
  if (min != -JsonReader::kInf && max != JsonReader::kInf)
    o << " in [" << min << ", " << max << "]";
  else if (min != -JsonReader::kInf)
    o << " >= " << min;
  else if (max != JsonReader::kInf)
    o << " <= " << max;
  return o.str();
}

}  // namespace

ConfigError::ConfigError(const std::string& file, const std::string& pointer, const std::string& detail)
    : std::runtime_error(file + ": " + (pointer.empty() ? "" : pointer + ": ") + detail) {}

std::string resolve_path(const std::string& referring_file, const std::string& path) {
  if (!path.empty() && path[0] == '/') return path;
  const auto slash = referring_file.find_last_of('/');
  return (slash == std::string::npos ? std::string(".") : referring_file.substr(0, slash)) + "/" + path;
}

nlohmann::json load_json_file(const std::string& path) { return parse_json_text(read_text_file(path), path); }

void apply_set(nlohmann::json& j, const std::string& a) {
  const auto eq = a.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + a, "", "expected path=value, e.g. network.segment_bytes=9000");
  std::string path = a.substr(0, eq), value = a.substr(eq + 1);
  nlohmann::json v;
  if (nlohmann::json::accept(value))
    v = parse_json_text(value, "--set " + a);  // depth and duplicate keys checked like a file's
  else
    v = value;  // bare words are strings: --set architecture=flat
  // Walk the path: an array index may name an element or the end (append), never
  // further (nlohmann would fill the gap with nulls, up to any size asked).
  std::string ptr;
  nlohmann::json* at = &j;
  std::stringstream ss(path);
  for (std::string part; std::getline(ss, part, '.');) {
    // Escaped, so a '/' or '~' inside a key stays in that key (an unescaped "1/99999999"
    // would reach nlohmann as an array index past every check below).
    ptr += "/" + json_pointer_escape(part);
    if (at != nullptr && at->is_array()) {
      const bool digits =
          !part.empty() && part.size() < 10 && part.find_first_not_of("0123456789") == std::string::npos;
      const std::size_t index = digits ? std::stoul(part) : std::size_t(-1);
      if (index > at->size())
        throw ConfigError("--set " + a, ptr,
                          "expected an array index from 0 to " + std::to_string(at->size()) +
                              " (the end, to append), got \"" + part + "\"");
      at = index < at->size() ? &(*at)[index] : nullptr;
    } else if (at != nullptr && at->is_object()) {
      at = at->contains(part) ? &(*at)[part] : nullptr;
    } else if (at != nullptr && !at->is_null()) {
      throw ConfigError("--set " + a, ptr, "cannot assign inside a " + std::string(at->type_name()));
    } else {
      // Below here nothing exists yet; nlohmann would make a numeric part an
      // array index and pad it with nulls.
      if (part.find_first_not_of("0123456789") == std::string::npos && part != "0")
        throw ConfigError("--set " + a, ptr, "no array here to index; only 0 can start a new one");
      at = nullptr;
    }
  }
  try {
    j[nlohmann::json::json_pointer(ptr)] = v;
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError("--set " + a, ptr, "cannot assign there");
  }
}

JsonReader::JsonReader(const nlohmann::json& j, std::string file, std::string pointer, nlohmann::json* resolved)
    : j_(&j), file_(std::move(file)), pointer_(std::move(pointer)), out_(resolved) {
  if (!j.is_object()) throw ConfigError(file_, pointer_, "expected an object, got " + short_dump(j));
  if (out_ != nullptr && !out_->is_object()) *out_ = nlohmann::json::object();
}

std::string JsonReader::pointer(const std::string& key) const { return pointer_ + "/" + key; }

void JsonReader::fail(const std::string& key, const std::string& detail) const {
  throw ConfigError(file_, key.empty() ? pointer_ : pointer(key), detail);
}

bool JsonReader::has(const std::string& key) const {
  asked_.insert(key);
  return j_->contains(key);
}

const nlohmann::json& JsonReader::take(const std::string& key) {
  asked_.insert(key);
  used_.insert(key);
  return j_->at(key);
}

double JsonReader::number(const std::string& key, std::optional<double> def, double min, double max) {
  double v;
  if (!has(key)) {
    if (!def) fail(key, "missing required number" + range_text(min, max));
    v = *def;
  } else {
    const auto& x = take(key);
    if (!x.is_number()) fail(key, "expected a number" + range_text(min, max) + ", got " + short_dump(x));
    v = x.get<double>();
    if (!std::isfinite(v) || v < min || v > max)
      fail(key, "expected a number" + range_text(min, max) + ", got " + short_dump(x));
  }
  if (out_) (*out_)[key] = v;
  return v;
}

double JsonReader::positive(const std::string& key, std::optional<double> def) {
  double v;
  if (!has(key)) {
    if (!def) fail(key, "missing required number > 0");
    v = *def;
  } else {
    const auto& x = take(key);
    if (!x.is_number() || !(x.get<double>() > 0) || !std::isfinite(x.get<double>()))
      fail(key, "expected a number > 0, got " + short_dump(x));
    v = x.get<double>();
  }
  if (out_) (*out_)[key] = v;
  return v;
}

std::int64_t JsonReader::integer(const std::string& key, std::optional<std::int64_t> def, std::int64_t min,
                                 std::int64_t max) {
  std::int64_t v;
  const double dmax = max == std::numeric_limits<std::int64_t>::max() ? kInf : double(max);
  if (!has(key)) {
    if (!def) fail(key, "missing required integer" + range_text(double(min), dmax));
    v = *def;
  } else {
    const auto& x = take(key);
    // 1e9 is an integer written as JSON writes large ones: taken when it is whole and in range.
    const bool whole = x.is_number_float() && std::isfinite(x.get<double>()) &&
                       x.get<double>() == std::floor(x.get<double>()) && std::abs(x.get<double>()) < 9e15;
    const std::int64_t n = x.is_number_integer() ? x.get<std::int64_t>() : whole ? std::int64_t(x.get<double>()) : 0;
    if (!(x.is_number_integer() || whole) || n < min || n > max)
      fail(key, "expected an integer" + range_text(double(min), dmax) + ", got " + short_dump(x));
    v = n;
  }
  if (out_) (*out_)[key] = v;
  return v;
}

std::string JsonReader::string(const std::string& key, std::optional<std::string> def,
                               const std::vector<std::string>& allowed) {
  std::string choices;
  for (const auto& a : allowed) choices += (choices.empty() ? "" : ", ") + a;
  const std::string want = allowed.empty() ? "a string" : "one of " + choices;
  std::string v;
  if (!has(key)) {
    if (!def) fail(key, "missing required " + want);
    v = *def;
  } else {
    const auto& x = take(key);
    if (!x.is_string()) fail(key, "expected " + want + ", got " + short_dump(x));
    v = x.get<std::string>();
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), v) == allowed.end())
      fail(key, "unknown value \"" + v + "\" (expected " + want + ")");
  }
  if (out_) (*out_)[key] = v;
  return v;
}

bool JsonReader::boolean(const std::string& key, std::optional<bool> def) {
  bool v;
  if (!has(key)) {
    if (!def) fail(key, "missing required boolean");
    v = *def;
  } else {
    const auto& x = take(key);
    if (!x.is_boolean()) fail(key, "expected true or false, got " + short_dump(x));
    v = x.get<bool>();
  }
  if (out_) (*out_)[key] = v;
  return v;
}

std::vector<double> JsonReader::numbers(const std::string& key, double min, double max) {
  std::vector<double> v;
  if (!has(key)) return v;
  const auto& x = take(key);
  auto check = [&](const nlohmann::json& e, const std::string& ptr) {
    if (!e.is_number() || e.get<double>() < min || e.get<double>() > max || !std::isfinite(e.get<double>()))
      throw ConfigError(file_, ptr, "expected a number" + range_text(min, max) + ", got " + short_dump(e));
    v.push_back(e.get<double>());
  };
  if (x.is_array()) {
    for (std::size_t i = 0; i < x.size(); ++i) check(x[i], pointer(key) + "/" + std::to_string(i));
    if (out_) (*out_)[key] = v;
  } else {
    check(x, pointer(key));
    if (out_) (*out_)[key] = v[0];
  }
  return v;
}

std::vector<std::string> JsonReader::strings(const std::string& key, const std::string& what) {
  std::vector<std::string> v;
  if (!has(key)) return v;
  const auto& x = take(key);
  if (!x.is_array()) fail(key, "expected an array of " + what + "s, got " + short_dump(x));
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!x[i].is_string())
      throw ConfigError(file_, pointer(key) + "/" + std::to_string(i),
                        "expected a " + what + ", got " + short_dump(x[i]));
    v.push_back(x[i].get<std::string>());
  }
  if (out_) (*out_)[key] = v;
  return v;
}

std::vector<std::int64_t> JsonReader::integers(const std::string& key, std::int64_t min, std::int64_t max) {
  std::vector<std::int64_t> v;
  if (!has(key)) return v;
  const auto& x = take(key);
  if (!x.is_array()) fail(key, "expected an array of integers, got " + short_dump(x));
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!x[i].is_number_integer() || x[i].get<std::int64_t>() < min || x[i].get<std::int64_t>() > max)
      throw ConfigError(file_, pointer(key) + "/" + std::to_string(i),
                        "expected an integer" + range_text(double(min), double(max)) + ", got " + short_dump(x[i]));
    v.push_back(x[i].get<std::int64_t>());
  }
  if (out_) (*out_)[key] = v;
  return v;
}

JsonReader JsonReader::object(const std::string& key) {
  if (!has(key)) fail(key, "missing required object");
  const auto& x = take(key);
  return JsonReader(x, file_, pointer(key), out_ ? &(*out_)[key] : nullptr);
}

JsonReader JsonReader::object_or_empty(const std::string& key) {
  if (has(key)) return object(key);
  JsonReader r(nlohmann::json::object(), file_, pointer(key), out_ ? &(*out_)[key] : nullptr);
  r.empty_ = std::make_shared<nlohmann::json>(nlohmann::json::object());
  r.j_ = r.empty_.get();
  return r;
}

std::vector<JsonReader> JsonReader::objects(const std::string& key) {
  std::vector<JsonReader> v;
  if (!has(key)) return v;
  const auto& x = take(key);
  if (!x.is_array()) fail(key, "expected an array of objects, got " + short_dump(x));
  nlohmann::json* arr = nullptr;
  if (out_) {
    arr = &(*out_)[key];
    *arr = nlohmann::json::array();
    for (std::size_t i = 0; i < x.size(); ++i) arr->push_back(nlohmann::json::object());
  }
  for (std::size_t i = 0; i < x.size(); ++i)
    v.emplace_back(x[i], file_, pointer(key) + "/" + std::to_string(i), arr ? &(*arr)[i] : nullptr);
  return v;
}

const nlohmann::json& JsonReader::raw(const std::string& key) {
  static const nlohmann::json null_json;
  if (!has(key)) return null_json;
  const auto& x = take(key);
  if (out_) (*out_)[key] = x;
  return x;
}

void JsonReader::finish() const {
  for (const auto& [k, v] : j_->items()) {
    (void)v;
    if (used_.count(k)) continue;
    std::string valid;
    for (const auto& u : asked_) valid += (valid.empty() ? "" : ", ") + u;
    throw ConfigError(file_, pointer(k),
                      "unknown key \"" + k + "\"" + (valid.empty() ? "" : " (valid here: " + valid + ")"));
  }
}

NumericParams read_numeric_params(JsonReader& r, const std::vector<NumericParam>& specs) {
  NumericParams out;
  for (const auto& ps : specs)
    out[ps.name] =
        ps.integer
            ? double(r.integer(ps.name, std::int64_t(ps.default_value), std::int64_t(ps.min), std::int64_t(ps.max)))
            : r.number(ps.name, ps.default_value, ps.min, ps.max);
  return out;
}

}  // namespace geotrain
