#include "core/run/results.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/base/atomic_file.h"

namespace geotrain {
namespace {
// Local steps per round: 0 for a node or DC that never pushed.
double steps_per_push(std::int64_t steps, std::int64_t pushes) {
  return pushes > 0 ? double(steps) / double(pushes) : 0.0;
}
nlohmann::json nullable(std::optional<double> v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

// {primary, names (the learner's order), values: {name: {final, best, higher_is_better}}} over the timeline.
nlohmann::json metrics_json(const RunResult& r) {
  using nlohmann::json;
  json values = json::object();
  for (std::size_t i = 0; i < r.metrics.size(); ++i) {
    const MetricInfo& m = r.metrics[i];
    std::optional<double> best, last;
    for (const auto& row : r.timeline) {
      if (i >= row.metrics.size()) continue;
      const double v = row.metrics[i];
      last = v;
      if (!std::isnan(v) && (!best || (m.higher_is_better ? v > *best : v < *best))) best = v;
    }
    values[m.name] = {{"final", nullable(last)}, {"best", nullable(best)}, {"higher_is_better", m.higher_is_better}};
  }
  json names = json::array();
  for (const auto& m : r.metrics) names.push_back(m.name);
  return {
      {"primary", r.metrics.empty() ? json(nullptr) : json(r.metrics[0].name)}, {"names", names}, {"values", values}};
}
}  // namespace

std::string final_primary_metric(const RunResult& r) {
  if (r.metrics.empty()) return "no metrics";
  const double v = r.timeline.empty() || r.timeline.back().metrics.empty() ? NAN : r.timeline.back().metrics[0];
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return r.metrics[0].name + " " + buf;
}

std::optional<double> metric_value(const RunResult& r, const TimelineRow& row, const std::string& name) {
  for (std::size_t i = 0; i < r.metrics.size() && i < row.metrics.size(); ++i)
    if (r.metrics[i].name == name) return row.metrics[i];
  return std::nullopt;
}

nlohmann::json summary_json(const RunResult& r) {
  using nlohmann::json;
  json j;
  const TimelineRow last = r.timeline.empty() ? TimelineRow{} : r.timeline.back();
  j["scenario_name"] = r.scenario_name;
  j["runtime"] = r.runtime;
  j["architecture"] = r.architecture;
  j["policy"] = r.policy;
  j["accuracy_modelled"] = r.accuracy_modelled;
  j["final_test_accuracy"] = nullable(metric_value(r, last, "test_accuracy"));
  j["final_loss"] = last.loss;
  j["final_test_loss"] = nullable(metric_value(r, last, "test_loss"));
  j["metrics"] = metrics_json(r);
  if (!r.metric_dcs.empty() && !r.timeline.empty()) {  // the last evaluation on each DC's own test rows
    nlohmann::json per_dc = nlohmann::json::object();
    const TimelineRow& last_row = r.timeline.back();
    for (std::size_t d = 0; d < r.metric_dcs.size(); ++d) {
      nlohmann::json m = nlohmann::json::object();
      for (std::size_t i = 0; i < r.metrics.size(); ++i) {
        const double v =
            d < last_row.dc_metrics.size() && i < last_row.dc_metrics[d].size() ? last_row.dc_metrics[d][i] : NAN;
        m[r.metrics[i].name] = std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
      }
      per_dc[r.metric_dcs[d]] = m;
    }
    j["per_dc_metrics"] = per_dc;
  }
  j["target_accuracy"] = r.target_metric == "test_accuracy" ? nullable(r.target) : json(nullptr);
  j["target"] = r.target ? json{{"metric", r.target_metric}, {"value", *r.target}} : json(nullptr);
  j["time_to_target_s"] = r.time_to_target_s ? json(*r.time_to_target_s) : json(nullptr);
  j["sim_time_s"] = r.sim_time_s;
  j["wall_time_s"] = r.wall_time_s;
  j["rounds"] = r.rounds;
  j["time_per_round_s"] = r.rounds > 0 ? r.sim_time_s / double(r.rounds) : 0.0;
  j["comm_time_per_round_s"] = r.comm_time_per_round_s;
  j["worker_steps"] = r.worker_steps;
  j["bytes"] = {{"wan", r.bytes.wan_bytes}, {"lan", r.bytes.lan_bytes}};
  j["wan_bytes_per_round"] = r.rounds > 0 ? double(r.bytes.wan_bytes) / double(r.rounds) : 0.0;
  j["events"] = r.events;
  json dcs = json::array();
  for (const auto& d : r.dcs)
    dcs.push_back({{"name", d.name},
                   {"workers", d.workers},
                   {"compute_busy_fraction", d.compute_busy_fraction},
                   {"blocked_fraction", d.blocked_fraction},
                   {"steps_per_push", steps_per_push(d.steps, d.pushes)},
                   {"idle_fraction", d.idle_fraction()}});
  j["dcs"] = dcs;
  json workers = json::array();
  for (const auto& w : r.workers)
    workers.push_back({{"name", w.name},
                       {"dc", w.dc},
                       {"steps", w.steps},
                       {"pushes", w.pushes},
                       {"steps_per_push", steps_per_push(w.steps, w.pushes)},
                       {"compute_busy_fraction", w.compute_busy_fraction},
                       {"blocked_fraction", w.blocked_fraction}});
  j["workers"] = workers;
  j["staleness"] = r.staleness;
  j["wan_syncs"] = r.wan_syncs;
  j["state_server"] = r.state_server;
  j["compression"] = r.compression;
  j["dgt"] = r.dgt;
  j["schedule"] = r.schedule;
  j["p3"] = r.p3;
  j["faults"] = json::array();
  for (const auto& f : r.faults) j["faults"].push_back({{"time_s", f.time_s}, {"node", f.node}, {"event", f.event}});
  j["network"] = r.network;
  j["scenario"] = r.scenario;
  j["error"] = r.error.empty() ? json(nullptr) : json(r.error);
  j["drops"] = r.drops;  // null when the runtime does not count them
  return j;
}

nlohmann::json timeline_row_json(const TimelineRow& r) {
  return {{"time_s", r.time_s},           {"round", r.round},
          {"metrics", r.metrics},         {"loss", r.loss},
          {"wan_bytes", r.net.wan_bytes}, {"lan_bytes", r.net.lan_bytes},
          {"samples", r.samples}};
}

TimelineRow timeline_row_from_json(const nlohmann::json& j) {
  TimelineRow r;
  r.time_s = j.at("time_s");
  r.round = j.at("round");
  for (const auto& m : j.at("metrics"))  // a metric not computable yet (NaN) is written as null
    r.metrics.push_back(m.is_null() ? std::numeric_limits<double>::quiet_NaN() : m.get<double>());
  r.loss = j.at("loss").is_null() ? std::numeric_limits<double>::quiet_NaN() : j.at("loss").get<double>();
  r.net.wan_bytes = j.at("wan_bytes");
  r.net.lan_bytes = j.at("lan_bytes");
  r.samples = j.value("samples", std::int64_t(-1));
  return r;
}

void write_run_outputs(const std::string& dir, const RunResult& r) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create directory: " + ec.message());
  write_file_atomically(dir + "/summary.json", summary_json(r).dump(2) + "\n");
  std::vector<std::string> streams;  // every stream in the summary's compression, in its order
  if (r.compression.is_object())
    for (const auto& [name, s] : r.compression.items()) streams.push_back(name);
  std::ostringstream csv;
  const bool dgt = !r.dgt.is_null();
  // Samples where the runtime counted them (simulation), else no column.
  const bool samples = std::any_of(r.timeline.begin(), r.timeline.end(), [](const auto& t) { return t.samples >= 0; });
  csv << "time_s,round";
  for (const auto& m : r.metrics) csv << ',' << m.name;
  csv << ",loss,wan_bytes,lan_bytes";
  if (samples) csv << ",samples";
  for (const auto& name : streams) csv << ',' << name << "_dense_bytes," << name << "_sent_bytes";
  if (dgt) csv << ",dgt_k";
  for (const auto& dc : r.metric_dcs)  // each DC's own test rows (dataset.per_dc), after every other column
    for (const auto& m : r.metrics) csv << ',' << dc << ':' << m.name;
  csv << '\n' << std::setprecision(10);
  for (const auto& t : r.timeline) {
    csv << t.time_s << ',' << t.round;
    for (std::size_t i = 0; i < r.metrics.size(); ++i) csv << ',' << (i < t.metrics.size() ? t.metrics[i] : NAN);
    csv << ',' << t.loss << ',' << t.net.wan_bytes << ',' << t.net.lan_bytes;
    if (samples) csv << ',' << t.samples;
    for (const auto& name : streams) {
      const auto it = t.streams.find(name);
      const StreamBytes b = it == t.streams.end() ? StreamBytes{} : it->second;
      csv << ',' << b.dense_bytes << ',' << b.sent_bytes;
    }
    if (dgt) csv << ',' << t.dgt_k;
    for (std::size_t d = 0; d < r.metric_dcs.size(); ++d)
      for (std::size_t i = 0; i < r.metrics.size(); ++i)
        csv << ',' << (d < t.dc_metrics.size() && i < t.dc_metrics[d].size() ? t.dc_metrics[d][i] : NAN);
    csv << '\n';
  }
  write_file_atomically(dir + "/timeline.csv", csv.str());
}

}  // namespace geotrain
