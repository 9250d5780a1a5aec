// The registry of network models (core/base/registry.h): what the scenario's
// `network.model` may name, with the `network.*` keys each reads, for the
// loader, `geotrain list` and the reference. How each one runs is sim/'s
// (sim/network_model.h makes the model of each name here; a test holds the two
// lists to each other).
#pragma once
#include <string>
#include <vector>

#include "core/base/registry.h"

namespace geotrain {

struct NetworkModelInfo {
  ComponentDoc doc;
  // Packets, devices and queues per node and link (ns-3): what the memory
  // estimate counts; the flow model holds flows only.
  bool packet_level = false;
  // Runs on an event queue of its own: several runs may share a process at once
  // (ns-3's simulator is one per process: a second packet-level run waits).
  bool shares_process = false;
};
const std::vector<NetworkModelInfo>& network_model_registry();
const NetworkModelInfo* find_network_model(const std::string& name);

}  // namespace geotrain
