#include "real/fault_plan.h"

#include <cstdlib>
#include <sstream>

#include "core/json/json_reader.h"

namespace geotrain::real {

namespace {

std::string node_list(const Deployment& dep) {
  std::string s;
  for (std::size_t i = 0; i < dep.nodes.size() && i < 24; ++i)
    s += (i ? ", " : "") + std::to_string(i) + " " + dep.nodes[i].name;
  return s + (dep.nodes.size() > 24 ? ", ..." : "");
}

bool parse_number(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && *v >= 0 && *v < 1e9;
}

}  // namespace

const char* to_string(Fault::Action a) {
  switch (a) {
    case Fault::Action::kKill: return "kill";
    case Fault::Action::kRestart: return "restart";
    case Fault::Action::kStall: return "stall";
  }
  return "?";
}

Fault parse_fault(const std::string& spec, const Deployment& dep) {
  const std::string where = "--fault " + spec;
  const auto colon = spec.find(':'), at = spec.rfind('@');
  if (colon == std::string::npos || at == std::string::npos || at < colon)
    throw ConfigError(where, "", "expected ACTION:NODE@WHEN, e.g. kill:dc-a/local-server@startup");
  Fault f;
  const std::string action = spec.substr(0, colon), node = spec.substr(colon + 1, at - colon - 1),
                    when = spec.substr(at + 1);
  if (action == "kill")
    f.action = Fault::Action::kKill;
  else if (action == "restart")
    f.action = Fault::Action::kRestart;
  else if (action == "stall")
    f.action = Fault::Action::kStall;
  else
    throw ConfigError(where, "", "unknown action \"" + action + "\"; expected kill, restart or stall");
  double id = -1;
  if (parse_number(node, &id) && id == double(NodeId(id)) && id < double(dep.nodes.size())) f.node = NodeId(id);
  for (const auto& n : dep.nodes)
    if (n.name == node) f.node = n.id;
  if (f.node < 0) throw ConfigError(where, "", "no such node \"" + node + "\"; this deployment has " + node_list(dep));
  if (when == "startup") {
    f.when = Fault::When::kStartup;
  } else if (when == "checkpoint") {
    f.when = Fault::When::kCheckpoint;
  } else if (when.rfind("launch+", 0) == 0 && parse_number(when.substr(7), &f.at_s)) {
    f.when = Fault::When::kAfterLaunch;
  } else if (parse_number(when, &f.at_s)) {
    f.when = Fault::When::kAfterStart;
  } else {
    throw ConfigError(where, "",
                      "unknown moment \"" + when +
                          "\"; expected startup, checkpoint, S (seconds after the job's "
                          "start) or launch+S");
  }
  return f;
}

std::string describe(const Fault& f, const Deployment& dep) {
  std::ostringstream o;
  o << to_string(f.action) << " " << dep.nodes.at(std::size_t(f.node)).name;
  switch (f.when) {
    case Fault::When::kAfterLaunch: o << " " << f.at_s << " s after the launch"; break;
    case Fault::When::kStartup: o << " at start-up"; break;
    case Fault::When::kAfterStart: o << " " << f.at_s << " s after the job's start"; break;
    case Fault::When::kCheckpoint: o << " at the first checkpoint"; break;
  }
  return o.str();
}

}  // namespace geotrain::real
