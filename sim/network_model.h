// A run's simulated network behind one interface: the event loop it runs on,
// the Transport its nodes send through, and what it counted. One model per name
// of core/config/network_models.h (the registry the loader, `geotrain list` and
// the reference read): "ns3", packet-level ns-3 (sim/sim_network,
// sim/sim_transport) on ns-3's process-global simulator, and "flow" (sim/flow_network)
// on a queue of its own.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/config/scenario.h"
#include "core/run/monitor.h"
#include "core/topology/deployment.h"
#include "sim/event_loop.h"
#include "sim/transport.h"

namespace geotrain::sim {

class NetworkModel {
 public:
  using Deliver = std::function<void(const Message&)>;
  virtual ~NetworkModel() = default;
  virtual EventLoop& loop() = 0;
  virtual Transport& transport() = 0;
  virtual NetCounters counters() const = 0;
  // The settings used, for summary.json's "network".
  virtual nlohmann::json settings() const = 0;
  // What the network lost, for summary.json's "drops".
  virtual nlohmann::json drops() const = 0;
};

// The model `sc.network.model` names, delivering each message through `deliver`.
// An "ns3" model holds ns-3's simulator for its lifetime (a second one in the
// process waits until the first is destroyed) and seeds ns-3's random streams
// from the scenario's seed. Throws std::invalid_argument for a name without a model.
std::unique_ptr<NetworkModel> make_network_model(const Scenario& sc, const Deployment& dep,
                                                 NetworkModel::Deliver deliver);
// Whether sim/ can make the model of this name (every registry entry's: a test checks).
bool can_make_network_model(const std::string& name);

}  // namespace geotrain::sim
