// A scenario: what to train, on which topology, under which architecture and
// policy, and when to stop. Loaded from scenarios/*.json (schema:
// scenarios/scenario.schema.json). The loader resolves defaults and records the
// full resolved scenario (topology inlined) for the run's summary.
#pragma once
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/codec/compression_spec.h"
#include "core/data/dataset_spec.h"
#include "core/data/partition.h"
#include "core/layers/dgt/dgt_spec.h"
#include "core/layers/p3/p3_spec.h"
#include "core/layers/sched/schedule_spec.h"
#include "core/layers/shard/multigps_spec.h"
#include "core/learners/learner_spec.h"
#include "core/optim/optimizer.h"
#include "core/run/stop_spec.h"
#include "core/topology/topology.h"

namespace geotrain {

struct Deployment;  // core/topology/deployment.h

struct NetworkSpec {
  // ns3: packet-level (sim/sim_network); flow: max-min fair flows (sim/flow_network), for scale.
  std::string model = "ns3";
  int segment_bytes = 64000;          // TCP segment (and link MTU - headers): super-segments simulate fast
  std::int64_t tcp_buffer_bytes = 0;  // 0 = sized to the largest path bandwidth-delay product
  int initial_cwnd_bytes = 14600;     // real TCP's 10 x 1460 B, converted to segments
  std::int64_t queue_bytes = 0;       // drop-tail device queue; 0 = max(1 MiB, link BDP)
  double min_rto_ms = 200;
};

struct Straggler {
  int worker = 0;  // global worker index
  double from_s = 0, to_s = 0, slowdown = 1;
};

struct ComputeSpec {
  double jitter = 0;  // step time multiplied by U(1 - jitter, 1 + jitter)
  std::vector<Straggler> stragglers;
};

struct Scenario {
  std::string file, name, description;
  Topology topology;
  std::uint64_t seed = 1;
  ModelSpec model;
  DatasetSpec dataset;
  PartitionSpec partition;
  std::string architecture = "hips";            // hips | flat
  std::string policy = "bsp";                   // a name in core/policies/policy_registry.h
  std::map<std::string, double> policy_params;  // every parameter of the policy, defaults filled in
  OptimizerSpec optimizer;
  int batch_size = 32;
  StopSpec stop;
  EvalSpec eval;
  NetworkSpec network;
  ComputeSpec compute;
  CompressionSpec compression;
  DgtSpec dgt;
  ScheduleSpec schedule;
  P3Spec p3;
  MultiGpsSpec multigps;
  nlohmann::json resolved;  // everything above, as run
};

// Loads a scenario file, applying --set assignments first ("a.b=v"; those under
// "topology." apply to the topology, referenced file or inline). Throws ConfigError.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets = {});
// The same from an already parsed document; `path` names it in errors and
// anchors a relative topology path.
Scenario read_scenario(nlohmann::json j, const std::string& path, const std::vector<std::string>& sets = {});
// Loads a topology file on its own (geotrain validate).
Topology load_topology(const std::string& path);

// The scenario's deployment: its topology, architecture, and a state server
// when its policy needs one. What every runtime and command uses.
Deployment plan_deployment(const Scenario& sc);

}  // namespace geotrain
