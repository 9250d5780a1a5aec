// A topology: data centres (with their workers' compute speeds and the LAN
// inside them) and the WAN links between them. Loaded from topologies/*.json;
// the schema is topologies/topology.schema.json.
#pragma once
#include <string>
#include <vector>

#include "core/config/json_reader.h"

namespace geotrain {

struct BandwidthPoint {
  double t_s = 0;
  double bandwidth_mbps = 0;
};

struct LinkSpec {
  double bandwidth_mbps = 0;
  double latency_ms = 0;              // one way
  double loss = 0;                    // packet loss probability
  std::vector<BandwidthPoint> trace;  // bandwidth changes over time (optional)
};

struct DcSpec {
  std::string name;
  int workers = 0;
  // Per-worker speed: exactly one of the two lists is non-empty, one entry per worker.
  std::vector<double> worker_gflops;
  std::vector<double> worker_samples_per_s;
  LinkSpec lan;  // each node's link to the DC switch
};

struct WanLink {
  int a = 0, b = 0;  // DC indices
  LinkSpec link;
};

struct Topology {
  std::string name, description;
  std::vector<DcSpec> dcs;
  int global_server_dc = 0;
  std::vector<WanLink> wan;  // one per connected DC pair (defaults expanded)

  int dc_index(const std::string& name) const;  // -1 when absent
  int total_workers() const;
};

// Reads a topology object; throws ConfigError. Checks that every DC reaches the
// global server's DC over the WAN.
Topology read_topology(JsonReader& r);

}  // namespace geotrain
