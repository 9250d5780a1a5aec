#include "cli/reference_markdown.h"

#include <algorithm>
#include <sstream>

#include "api/catalog.h"
#include "api/platform.h"
#include "api/scenarios.h"

namespace geotrain::cli {
namespace {

using nlohmann::json;

std::string number(double v) {
  if (v == double(static_cast<long long>(v)) && v > -1e15 && v < 1e15) return std::to_string(static_cast<long long>(v));
  std::ostringstream o;
  o << v;
  return o.str();
}

// A table cell: one line, no pipes.
std::string cell(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

std::string type_of(const json& n) {
  if (n.contains("enum")) {
    std::vector<std::string> vs;
    for (const auto& v : n["enum"]) vs.push_back(v.is_string() ? "`" + v.get<std::string>() + "`" : v.dump());
    return "one of " + joined(vs);
  }
  if (n.contains("const")) return "`" + n["const"].dump() + "`";
  if (n.contains("oneOf")) {
    std::vector<std::string> kinds;
    for (const auto& alt : n["oneOf"])
      if (alt.contains("properties") && alt["properties"].contains("kind") &&
          alt["properties"]["kind"].contains("const"))
        kinds.push_back("`" + alt["properties"]["kind"]["const"].get<std::string>() + "`");
    if (!kinds.empty()) return "object by `kind`: " + joined(kinds);
    std::vector<std::string> types;
    for (const auto& alt : n["oneOf"]) types.push_back(type_of(alt));
    return joined(types, " or ");
  }
  if (n.contains("$ref")) return "see " + n["$ref"].get<std::string>();
  if (!n.contains("type")) return "";
  if (n["type"].is_array()) {
    std::vector<std::string> ts;
    for (const auto& t : n["type"]) ts.push_back(t.get<std::string>());
    return joined(ts, " or ");
  }
  std::string t = n["type"].get<std::string>();
  if (t == "array" && n.contains("items")) t += " of " + type_of(n["items"]);
  return t;
}

std::string range_of(const json& n) {
  const bool lo = n.contains("minimum") || n.contains("exclusiveMinimum"), hi = n.contains("maximum");
  if (!lo && !hi) return "";
  std::string s;
  if (n.contains("exclusiveMinimum")) s = "> " + number(n["exclusiveMinimum"].get<double>());
  if (n.contains("minimum")) s = number(n["minimum"].get<double>());
  if (hi) s += (lo ? (n.contains("exclusiveMinimum") ? ", <= " : " to ") : "<= ") + number(n["maximum"].get<double>());
  return s;
}

// One row per field, nested objects as dotted paths.
void schema_rows(const json& props, const std::string& prefix, std::ostringstream& o) {
  for (const auto& [name, n] : props.items()) {
    if (name == "$schema") continue;
    const std::string path = prefix + name;
    o << "| `" << path << "` | " << cell(type_of(n)) << " | " << cell(range_of(n)) << " | "
      << (n.contains("default") ? cell(n["default"].dump()) : "") << " | "
      << cell(n.value("description", std::string())) << " |\n";
    if (n.contains("properties")) schema_rows(n["properties"], path + ".", o);
  }
}

void schema_section(const std::string& title, const std::string& file, const std::string& source_dir,
                    std::ostringstream& o) {
  const json s = load_json_file(source_dir + "/" + file);
  o << "## " << title << " (`" << file << "`)\n\n" << s.value("description", std::string()) << "\n\n";
  o << "| field | type | range | default | meaning |\n|---|---|---|---|---|\n";
  schema_rows(s["properties"], "", o);
  o << "\n";
}

void numeric_table(const std::vector<NumericParam>& params, std::ostringstream& o) {
  if (params.empty()) return;
  o << "\n| parameter | default | range | meaning |\n|---|---|---|---|\n";
  for (const auto& p : params)
    o << "| `" << p.name << "` | " << number(p.default_value) << " | " << number(p.min) << " to " << number(p.max)
      << (p.integer ? " (integer)" : "") << " | " << cell(p.help) << " |\n";
}

void doc_table(const std::vector<ParamDoc>& params, std::ostringstream& o) {
  if (params.empty()) return;
  o << "\n| parameter | default | meaning |\n|---|---|---|\n";
  for (const auto& p : params)
    o << "| `" << p.name << "` | " << cell(p.default_value) << " | " << cell(p.help) << " |\n";
}

template <class Entry>
void registry_section(const std::string& title, const std::vector<Entry>& registry, std::ostringstream& o) {
  o << "## " << title << "\n\n";
  for (const auto& e : registry) {
    o << "### `" << e.doc.name << "`\n\n" << e.doc.description << "\n";
    doc_table(e.doc.params, o);
    o << "\n";
  }
}

void learners_section(std::ostringstream& o) {
  o << "## Models (`model.kind`)\n\nThe learners, by family: what each learns from, its parameters, its metrics "
       "(the first is primary: `stop.target` and `time_to_target_s` use it) and what it runs under.\n\n";
  std::vector<std::string> families;
  for (const auto& l : builtin_learners())
    if (std::find(families.begin(), families.end(), l.family) == families.end()) families.push_back(l.family);
  for (const auto& f : families) {
    o << "### " << f << "\n\n";
    for (const auto& l : builtin_learners()) {
      if (l.family != f) continue;
      o << "#### `" << l.doc.name << "`\n\n" << l.doc.description << "\n\n";
      o << "- learns from: " << joined(l.data, " or ") << " data\n";
      std::vector<std::string> metrics;
      for (std::size_t i = 0; i < l.metrics.size(); ++i)
        metrics.push_back("`" + l.metrics[i].name + "` (" +
                          (l.metrics[i].higher_is_better ? "higher is better" : "lower is better") +
                          (i == 0 ? ", primary)" : ")"));
      o << "- metrics: " << joined(metrics) << "\n";
      o << "- policies: " << joined(accepted_policies(l)) << "\n";
      const auto push = accepted_codecs(l), pull = accepted_codecs(l, true);
      if (push == pull)
        o << "- codecs: " << joined(push) << "\n";
      else
        o << "- push codecs: " << joined(push) << "; pull codecs: " << joined(pull) << "\n";
      o << "- runs " << (l.caps.real_mode ? "in simulation and real mode" : "in simulation only")
        << (l.caps.cuttable ? "; with dgt, p3, multigps" : "; no dgt, p3 or multigps") << "\n";
      doc_table(l.doc.params, o);
      numeric_table(l.params, o);
      o << "\n";
    }
  }
}

}  // namespace

std::string reference_markdown(const std::string& source_dir) {
  std::ostringstream o;
  o << "# Parameter reference\n\n"
       "Generated by `geotrain list --markdown > docs/reference.md` from the JSON Schemas and the\n"
       "registries; the test `docs.reference_is_current` fails when this file differs from what the code\n"
       "generates. How to use these: [user-guide.md](user-guide.md); what each does and when to use it:\n"
       "[catalogue.md](catalogue.md).\n\n";
  schema_section("Scenario fields", "scenarios/scenario.schema.json", source_dir, o);
  schema_section("Topology fields", "topologies/topology.schema.json", source_dir, o);
  registry_section("Architectures (`architecture`)", architecture_registry(), o);
  registry_section("Network models (`network.model`)", network_model_registry(), o);
  o << "## Policies (`policy.kind`)\n\n";
  for (const auto& p : policy_registry()) {
    o << "### `" << p.name << "`";
    for (const auto& a : p.aliases) o << " (alias `" << a << "`)";
    o << "\n\n" << p.description << " Architectures: " << joined(p.architectures) << ".\n";
    numeric_table(p.params, o);
    o << "\n";
  }
  o << "## Codecs (`compression.lan_push`, `lan_pull`, `wan_push`, `wan_pull` `.kind`)\n\n";
  for (const auto& c : codec_registry()) {
    o << "### `" << c.doc.name << "`" << (c.lossless ? " (lossless)" : "") << "\n\n" << c.doc.description << "\n";
    numeric_table(c.params, o);
    o << "\n";
  }
  o << "## Schedulers (`schedule.lan`, `schedule.wan` `.kind`)\n\n";
  for (const auto& s : scheduler_registry()) {
    o << "### `" << s.doc.name << "`\n\n" << s.doc.description << "\n";
    numeric_table(s.params, o);
    o << "\n";
  }
  learners_section(o);
  registry_section("Optimisers (`optimizer.kind`)", optimizer_registry(), o);
  registry_section("Datasets (`dataset.kind`)", dataset_registry(), o);
  std::string s = o.str();
  while (s.size() >= 2 && s[s.size() - 1] == '\n' && s[s.size() - 2] == '\n') s.pop_back();
  return s;
}

}  // namespace geotrain::cli
