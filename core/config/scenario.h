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

#include "core/codec/codec_registry.h"
#include "core/config/topology.h"
#include "core/data/dataset_spec.h"
#include "core/data/partition.h"
#include "core/learners/learner_spec.h"
#include "core/optim/optimizer.h"
#include "core/sched/scheduler_registry.h"

namespace geotrain {

struct StopSpec {
  std::int64_t rounds = 0;  // 0 = no limit
  double sim_time_s = 0;    // 0 = no limit
  // The target a run is timed to (`time_to_target_s`) and may stop at: a
  // metric of the learner (default: its primary one) and the value to reach,
  // in that metric's better direction. `target_accuracy: v` is the same as
  // `target: {metric: "test_accuracy", value: v}`.
  std::optional<double> target;
  std::string target_metric;  // resolved: a name from the learner's metrics
  bool stop_at_target = false;
};

struct EvalSpec {
  int every_rounds = 10;
  // > 0: evaluate at the first round ending at or after each multiple of this
  // many seconds instead (policies whose rounds differ in length, e.g. asp
  // where every push is a round, compare at the same times).
  double every_s = 0;
};

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

// Which codec each stream uses (core/codec/codec_registry.h): pushes and pull
// responses, inside a DC (lan) and across the WAN (wan).
struct CompressionSpec {
  CodecChoice lan_push, lan_pull, wan_push, wan_pull;
  std::uint64_t dense_below = 200000;  // smaller tensors travel dense (mpq: fp16)
  bool any() const {
    for (const CodecChoice* c : {&lan_push, &lan_pull, &wan_push, &wan_pull})
      if (c->kind != "none") return true;
    return false;
  }
};

// DGT, differential gradient transmission of WAN pushes (core/dgt,
// REFERENCE.md section 6): each push in blocks ranked by contribution, the top
// K fraction reliable, the rest best-effort, zero-filled where lost.
struct DgtSpec {
  int mode = 0;                // 0: off; 1: unimportant blocks over UDP; 2: all over TCP, lower priority; 3: 2 + 4-bit
  double k = 0.5;              // K0: fraction of blocks sent reliably
  double k_min = 0.2;          // adaptive K never goes below
  bool adaptive = true;        // K_t = max(K0 loss_t / loss_0, K_min), loss = the push's training loss
  int channels = 3;            // C best-effort channels, of descending priority
  double alpha = 0.3;          // contribution EMA: c = alpha c_prev + (1 - alpha) mean|g_block|
  int block_bytes = 4096;      // fp32 entries per block x 4
  double deadline_ms = 50;     // the receiver assembles this long after the last reliable part
  double rate_fraction = 0.9;  // mode 1: UDP paced at this fraction of the path's WAN bandwidth
  bool on() const { return mode != 0; }
};

// Transfer scheduling per tier (core/sched, REFERENCE.md section 7): who
// relays the model to whom and who sums whose push, inside a DC (lan: a local
// server's group) and across the WAN (wan: the global server's).
struct ScheduleSpec {
  SchedulerChoice lan, wan;
  bool any() const { return lan.on() || wan.on(); }
};

// P3, priority-based parameter propagation (core/p3, REFERENCE.md section 8):
// pushes and pulls sliced, first layers first, the next step's forward pass
// overlapping the rest.
struct P3Spec {
  std::uint64_t slice_elements = 0;   // 0: off; else the most entries one slice carries
  double forward_fraction = 1.0 / 3;  // the forward pass's share of a step (backward is about twice it)
  bool on() const { return slice_elements > 0; }
};

// MultiGPS (core/shard, REFERENCE.md section 1): the model sharded over
// several global servers in the global server's DC.
struct MultiGpsSpec {
  int servers = 1;
  std::uint64_t split_above = 1000000;  // tensors of at least this many entries are cut into ranges
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

}  // namespace geotrain
