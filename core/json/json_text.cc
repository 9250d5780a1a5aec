#include "core/json/json_text.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <vector>

#include "core/json/json_reader.h"

namespace geotrain {
namespace {

using json = nlohmann::json;

// A SAX handler that builds the tree with nlohmann's own DOM builder and checks,
// on the way, depth and duplicate keys while it knows the path of each value.
class StrictSax {
 public:
  StrictSax(json& out, std::string source, const std::string& text)
      : dom_(out, true), source_(std::move(source)), text_(text) {}

  bool null() { return element() && dom_.null(); }
  bool boolean(bool v) { return element() && dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return element() && dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return element() && dom_.number_unsigned(v); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return element() && dom_.number_float(v, s); }
  bool string(json::string_t& v) { return element() && dom_.string(v); }
  bool binary(json::binary_t& v) { return element() && dom_.binary(v); }
  bool start_object(std::size_t n) { return open(true) && dom_.start_object(n); }
  bool start_array(std::size_t n) { return open(false) && dom_.start_array(n); }
  bool end_object() {
    frames_.pop_back();
    return dom_.end_object();
  }
  bool end_array() {
    frames_.pop_back();
    return dom_.end_array();
  }
  bool key(json::string_t& k) {
    Frame& f = frames_.back();
    f.key = k;
    if (!f.keys.insert(k).second) throw ConfigError(source_, path(), "duplicate key \"" + k + "\"");
    return dom_.key(k);
  }
  bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception&) {
    std::size_t line = 1, col = 1;
    for (std::size_t i = 0; i + 1 < byte && i < text_.size(); ++i) {
      if (text_[i] == '\n')
        ++line, col = 1;
      else
        ++col;
    }
    throw ConfigError(source_, "",
                      "malformed JSON at line " + std::to_string(line) + ", column " + std::to_string(col));
  }

 private:
  struct Frame {
    bool object;
    std::string segment;   // this container's own place in its parent
    std::string key;       // objects: the key being read
    std::size_t next = 0;  // arrays: index of the next element
    std::set<std::string> keys;
  };
  // A scalar value: in an array it takes the next index (its path is never needed).
  bool element() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().next;
    return true;
  }
  bool open(bool object) {
    std::string seg;  // the new container's place inside the current one
    if (!frames_.empty()) {
      Frame& f = frames_.back();
      seg = f.object ? json_pointer_escape(f.key) : std::to_string(f.next++);
    }
    if (frames_.size() >= kMaxJsonDepth)
      throw ConfigError(source_, path(), "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    frames_.push_back({object, std::move(seg), "", 0, {}});
    return true;
  }
  std::string path() const {
    std::string p;
    for (std::size_t i = 1; i < frames_.size(); ++i) p += "/" + frames_[i].segment;
    if (!frames_.empty() && frames_.back().object) p += "/" + json_pointer_escape(frames_.back().key);
    return p;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  std::string source_;
  const std::string& text_;
  std::vector<Frame> frames_;
};

}  // namespace

std::string json_pointer_escape(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

json parse_json_text(const std::string& text, const std::string& source) {
  json out;
  StrictSax sax(out, source, text);
  json::sax_parse(text, &sax);
  return out;
}

std::string read_text_file(const std::string& path, std::size_t max_bytes) {
  std::error_code ec;
  const auto st = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(st)) throw ConfigError(path, "", "cannot open file (no such file)");
  if (!std::filesystem::is_regular_file(st)) throw ConfigError(path, "", "not a regular file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(path, "", "cannot open file");
  std::string text;
  char buf[1 << 16];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, std::size_t(in.gcount()));
    if (text.size() > max_bytes)
      throw ConfigError(path, "", "larger than " + std::to_string(max_bytes >> 20) + " MiB: not a file geotrain reads");
  }
  return text;
}

}  // namespace geotrain
