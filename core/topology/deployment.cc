#include "core/topology/deployment.h"

#include <stdexcept>

namespace geotrain {

const std::vector<ArchitectureInfo>& architecture_registry() {
  static const std::vector<ArchitectureInfo> registry = {
      {{"hips",
        "two tiers: workers -> their DC's local server -> global server (only local servers cross the WAN)",
        {}},
       true},
      {{"flat", "every worker talks to the global server, across the WAN (MXNet-style baseline)", {}}, false},
  };
  return registry;
}

Deployment plan_deployment(const Topology& t, const std::string& arch, bool state_server, int global_servers) {
  const ArchitectureInfo* info = find_entry(architecture_registry(), arch);
  if (!info) throw std::invalid_argument("unknown architecture '" + arch + "'");
  Deployment d;
  NodeSpec gs;
  gs.id = 0;
  gs.role = Role::kGlobalServer;
  gs.dc = t.global_server_dc;
  gs.name = "global-server";
  d.nodes.push_back(gs);
  for (int dc = 0; dc < int(t.dcs.size()); ++dc) {
    const auto& spec = t.dcs[dc];
    if (spec.workers == 0) continue;
    NodeId parent = 0;
    if (info->local_servers) {
      NodeSpec ls;
      ls.id = NodeId(d.nodes.size());
      ls.role = Role::kLocalServer;
      ls.dc = dc;
      ls.name = spec.name + "/local-server";
      ls.parent = 0;
      d.nodes[0].children.push_back(ls.id);
      parent = ls.id;
      d.nodes.push_back(ls);
    }
    for (int w = 0; w < spec.workers; ++w) {
      NodeSpec ws;
      ws.id = NodeId(d.nodes.size());
      ws.role = Role::kWorker;
      ws.dc = dc;
      ws.worker_index = int(d.workers.size());
      ws.name = spec.name + "/worker" + std::to_string(w);
      ws.parent = parent;
      d.nodes[parent].children.push_back(ws.id);
      d.workers.push_back(ws.id);
      d.nodes.push_back(ws);
    }
  }
  if (state_server) {
    NodeSpec ss;
    ss.id = NodeId(d.nodes.size());
    ss.role = Role::kStateServer;
    ss.dc = t.global_server_dc;
    ss.name = "state-server";
    d.state_server = ss.id;
    d.nodes.push_back(ss);
  }
  d.global_servers.push_back(0);
  for (int s = 1; s < global_servers; ++s) {  // MultiGPS: the same children, each server its shard
    NodeSpec g = d.nodes[0];
    g.id = NodeId(d.nodes.size());
    g.name = "global-server-" + std::to_string(s);
    d.global_servers.push_back(g.id);
    d.nodes.push_back(g);
  }
  return d;
}

bool may_relay(const Deployment& d, NodeId relay, NodeId origin) {
  if (relay == origin) return true;
  const auto valid = [&](NodeId n) { return n >= 0 && n < NodeId(d.nodes.size()); };
  if (!valid(relay) || !valid(origin)) return false;
  const NodeId parent = d.nodes[relay].parent;
  return parent >= 0 && (origin == parent || d.nodes[origin].parent == parent);
}

}  // namespace geotrain
