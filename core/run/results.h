// The outcome of one run, whichever runtime produced it, and its files:
// DIR/summary.json (schema: analysis/schemas/summary.schema.json) and
// DIR/timeline.csv (one row per evaluation).
#pragma once
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/run/monitor.h"

namespace geotrain {

struct DcStats {
  std::string name;
  int workers = 0;
  double compute_busy_fraction = 0;    // mean over the DC's workers of busy time / run time
  double blocked_fraction = 0;         // mean of (waiting for the round trip) / run time
  std::int64_t steps = 0, pushes = 0;  // summed over the DC's workers: steps / pushes = local steps per round
  // The rest: before the first step, after the job stopped a worker; busy + blocked + idle = 1.
  double idle_fraction() const {
    return workers == 0 ? 0.0 : std::max(0.0, 1.0 - compute_busy_fraction - blocked_fraction);
  }
};

// One worker's share of a run.
struct WorkerSummary {
  std::string name, dc;
  std::int64_t steps = 0, pushes = 0;
  double compute_busy_fraction = 0, blocked_fraction = 0;
};

// Something that happened to a node during a run (real mode: failure detected,
// node back, server restored from a checkpoint, ...).
struct FaultEvent {
  double time_s = 0;
  std::string node;
  std::string event;
};

struct RunResult {
  std::string runtime;  // "sim" | "real"
  std::string scenario_name, architecture, policy;
  std::optional<double> target;  // stop.target's value, in target_metric
  std::string target_metric;
  std::optional<double> time_to_target_s;
  // The learner's metrics (names and directions) the timeline rows hold, [0] primary.
  std::vector<MetricInfo> metrics;
  // False for a workload profile (core/learners/profile_model.h): metrics are
  // not modelled, only traffic and time (summary.json: accuracy_modelled).
  bool accuracy_modelled = true;
  double sim_time_s = 0;
  double wall_time_s = 0;
  std::int64_t rounds = 0;
  std::int64_t worker_steps = 0;
  NetCounters bytes;
  std::uint64_t events = 0;
  std::vector<DcStats> dcs;
  std::vector<WorkerSummary> workers;
  nlohmann::json staleness;     // {mean, max}: rounds applied between a push's model and its application
  std::int64_t wan_syncs = 0;   // pushes the global server accepted from children in other DCs
  nlohmann::json state_server;  // {reports, push_now}, null when the policy has none
  // Per stream ("wan_push", ...): {codec, payloads, dense_bytes, sent_bytes, ratio}.
  nlohmann::json compression = nlohmann::json::object();
  // DGT (null when off): blocks per channel (0: reliable) sent, delivered on
  // time, late (added into the next push) and lost; pushes; K's mean.
  nlohmann::json dgt;
  nlohmann::json schedule;  // null unless the scenario schedules transfers (core/layers/sched)
  nlohmann::json p3;        // null unless the scenario slices messages (core/layers/p3)
  // Mean time from a round's first push leaving a worker to the last worker
  // holding the next model (rounds counted per worker: its k-th push).
  double comm_time_per_round_s = 0;
  nlohmann::json network;   // runtime-specific settings that change results (segment size, ...)
  nlohmann::json scenario;  // resolved scenario
  std::vector<TimelineRow> timeline;
  std::vector<FaultEvent> faults;
  // Why the run ended before its stop condition ("" = it reached it): training
  // diverged, nothing could happen any more, no round completed, a server lost.
  // A run with an error still writes its partial summary, and exits non-zero.
  std::string error;
  // Packets lost in the network and TCP timeouts (sim only; null in real mode):
  // {dropped_at_sending_hosts, dropped_at_switches, wan|lan: {loss_drops}, retransmission_timeouts}.
  nlohmann::json drops;
  // Where each DC holds its own files: the DCs of the timeline rows'
  // dc_metrics, in order (empty: none). summary.json's per_dc_metrics is the
  // last row's, {dc: {metric: value}}.
  std::vector<std::string> metric_dcs;
};

nlohmann::json summary_json(const RunResult& r);
// "test_accuracy 0.8560": the run's primary metric at its last evaluation (the commands' closing line).
std::string final_primary_metric(const RunResult& r);
// The value of metric `name` in row (nullopt: the run's learner has no such metric).
std::optional<double> metric_value(const RunResult& r, const TimelineRow& row, const std::string& name);
// One timeline row as JSON and back (node reports, checkpoints).
nlohmann::json timeline_row_json(const TimelineRow& r);
TimelineRow timeline_row_from_json(const nlohmann::json& j);
// Creates dir if needed; writes summary.json and timeline.csv. Throws std::runtime_error.
void write_run_outputs(const std::string& dir, const RunResult& r);

}  // namespace geotrain
