// A topology: data centres (with their workers' compute speeds and the LAN
// inside them) and the WAN links between them. Loaded from topologies/*.json;
// the schema is topologies/topology.schema.json.
#pragma once
#include <string>
#include <vector>

#include "core/json/json_reader.h"

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

// The WAN as a graph, for routes between DCs: the fewest hops, ties broken by
// the order of Topology::wan. Built once (linear in links), then each route
// costs what its search visits, not the whole WAN.
class WanRoutes {
 public:
  explicit WanRoutes(const Topology& t);
  // Indices into t.wan of the links from DC a to DC b, in order (empty when
  // a == b or when b cannot be reached).
  std::vector<int> route(int a, int b) const;

 private:
  std::vector<std::vector<std::pair<int, int>>> adjacent_;  // DC -> (neighbour, index into wan), in wan order
};

// The WAN path between two DCs: bottleneck bandwidth and summed latency over
// the fewest hops (a direct link keeps its loss and trace).
LinkSpec wan_path(const Topology& t, int a, int b);

// Bounds that keep every topology runnable by ns-3 (its DataRate is an integer
// of bits per second; TCP gives up on paths much slower or longer than these)
// and its validation fast: reading takes time linear in the links it expands to.
constexpr double kMinBandwidthMbps = 0.01;  // 10 kbit/s
constexpr double kMaxBandwidthMbps = 1e5;   // 100 Gbit/s
constexpr double kMaxLatencyMs = 10000;     // one way
constexpr double kMaxLoss = 0.1;            // per packet
constexpr int kMaxDcs = 1024;               // a full WAN mesh is 523,776 links
constexpr int kMaxWorkersPerDc = 4096;
constexpr int kMaxNodes = 65536;  // hosts in one simulation or deployment
constexpr std::size_t kMaxTracePoints = 100000;

// Reads a topology object; throws ConfigError. Checks that every DC reaches the
// global server's DC over the WAN.
Topology read_topology(JsonReader& r);

}  // namespace geotrain
