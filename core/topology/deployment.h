// Which roles exist, where they run and who talks to whom: derived from the
// topology and the architecture, identically in every runtime.
//  hips: worker -> its DC's local server -> global server (one local server per
//        DC that has workers; only local servers cross the WAN).
//  flat: worker -> global server directly (MXNet-style PS across the WAN).
// Node ids: the global server is 0, then per DC its local server (hips), then
// its workers; last, if the scenario's policy asks for one (esync, nbsync), the
// state server, in the global server's DC: a node of its own that every worker
// reports to and that no one else talks to (no parent, no children).
#pragma once
#include <string>
#include <vector>

#include "core/base/registry.h"
#include "core/payload/message.h"
#include "core/runtime/role.h"
#include "core/topology/topology.h"

namespace geotrain {

struct NodeSpec {
  NodeId id = -1;
  Role role = Role::kWorker;
  int dc = 0;
  int worker_index = -1;  // global worker index (workers only), DC-major
  std::string name;       // e.g. "dc-a/worker1", "dc-a/local-server", "global-server"
  NodeId parent = -1;
  std::vector<NodeId> children;
};

struct Deployment {
  std::vector<NodeSpec> nodes;  // index == id
  NodeId global_server = 0;
  std::vector<NodeId> workers;  // by worker index
  NodeId state_server = -1;     // -1: none
  // The global servers, each holding a shard of the model (MultiGPS); [0] is
  // global_server. The others come last, after the state server.
  std::vector<NodeId> global_servers;
};

// The registry of architectures (core/base/registry.h): what the scenario's
// `architecture` may name.
struct ArchitectureInfo {
  ComponentDoc doc;
  bool local_servers = false;  // a local server per DC between its workers and the global server
};
const std::vector<ArchitectureInfo>& architecture_registry();

// Whether `relay` may forward a message that began at `origin`: its own, its
// parent's (a model relayed down a scheduled group, core/layers/sched) or a
// sibling's (a push merged on its way up). Nothing crosses groups.
bool may_relay(const Deployment& d, NodeId relay, NodeId origin);

// Throws std::invalid_argument for an architecture not in the registry.
Deployment plan_deployment(const Topology& t, const std::string& architecture, bool state_server = false,
                           int global_servers = 1);
// plan_deployment(const Scenario&), the scenario's deployment: core/config/scenario.h.

}  // namespace geotrain
