// What every registry of built-in components (models, optimisers, datasets,
// architectures; policies have their own richer PolicyInfo) says about each
// entry, and the lookups they share. Each registry lists its entries with a
// reader of their scenario parameters and a factory; the scenario loader
// accepts exactly the registered names, `geotrain list` prints the entries,
// and a test holds scenarios/scenario.schema.json's enums to them. A new
// component is its own file plus one line in its registry.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace geotrain {

struct ParamDoc {
  std::string name, default_value, help;
};

struct ComponentDoc {
  std::string name;
  std::string description;  // one line
  std::vector<ParamDoc> params;
};

// A numeric parameter of a component chosen by `kind` with its own keys
// (policies, codecs): the scenario loader reads it within [min, max].
struct NumericParam {
  std::string name;
  double default_value = 0, min = 0, max = 0;
  bool integer = false;
  std::string help;
};
using NumericParams = std::map<std::string, double>;  // every parameter, defaults filled in

// The doc of a component whose parameters are numeric: defaults printed
// without trailing zeros.
inline ComponentDoc numeric_doc(const std::string& name, const std::string& line,
                                const std::vector<NumericParam>& params) {
  ComponentDoc d{name, line, {}};
  for (const auto& p : params) {
    std::string def = std::to_string(p.default_value);
    def.erase(def.find_last_not_of('0') + 1);
    if (!def.empty() && def.back() == '.') def.pop_back();
    d.params.push_back({p.name, def, p.help});
  }
  return d;
}

// The entry called `name`, or null. Entry: any struct with a `ComponentDoc doc`.
template <class Entry>
const Entry* find_entry(const std::vector<Entry>& registry, const std::string& name) {
  for (const auto& e : registry)
    if (e.doc.name == name) return &e;
  return nullptr;
}

template <class Entry>
std::vector<std::string> entry_names(const std::vector<Entry>& registry) {
  std::vector<std::string> out;
  for (const auto& e : registry) out.push_back(e.doc.name);
  return out;
}

}  // namespace geotrain
