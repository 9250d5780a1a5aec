#include "core/job/role_stats.h"

#include <algorithm>

#include "core/run/run_records.h"

namespace geotrain {
namespace {
// Calls fn(row, sample) with each timeline row and the last sample of a
// node's time-ordered history ([time_s, ...] arrays) at or before the row's
// time (a null sample when none is).
template <class Fn>
void at_each_row(const nlohmann::json& history, std::vector<TimelineRow>& timeline, Fn fn) {
  static const nlohmann::json none;
  std::size_t i = 0;  // the first sample after the row's time
  for (TimelineRow& row : timeline) {
    while (i < history.size() && history[i][0].get<double>() <= row.time_s) ++i;
    fn(row, i == 0 ? none : history[i - 1]);
  }
}

// Adds one sender's stream totals, as they stood at each row's time, to the
// timeline rows. `history`: [time_s, payloads, dense_bytes, sent_bytes] rows.
void add_history(const std::string& name, const nlohmann::json& history, std::vector<TimelineRow>* timeline) {
  at_each_row(history, *timeline, [&name](TimelineRow& row, const nlohmann::json& h) {
    StreamBytes& t = row.streams[name];
    if (!h.is_null()) t += {h[1].get<std::uint64_t>(), h[2].get<std::uint64_t>(), h[3].get<std::uint64_t>()};
  });
}
// Mean over rounds of the time from a round's first push leaving a worker to
// the last worker holding the model that followed (the k-th push of every
// worker and the first model each got after it are round k's).
double comm_time_per_round(const Deployment& dep, const std::vector<RoleReport>& reports) {
  RoundSpans spans;
  for (const auto& n : dep.nodes) {
    const nlohmann::json& j = reports.at(std::size_t(n.id)).report;
    if (n.role != Role::kWorker || j.is_null() || !j.contains("model_s")) continue;
    const nlohmann::json &push = j["push_s"], &model = j["model_s"];
    const std::size_t k = std::min(push.size(), model.size());
    for (std::size_t i = 0; i < k; ++i) spans.add(i, push[i].get<double>(), model[i].get<double>());
  }
  return spans.mean();
}

// The summary's dgt and each row's K, from the senders' and receivers' "dgt" reports.
void assemble_dgt(const std::vector<RoleReport>& reports, bool best_effort, RunResult* r) {
  std::vector<std::uint64_t> sent, on_time, late;
  std::uint64_t pushes = 0, assembled = 0, zero = 0, unsent = 0, rejected = 0;
  std::vector<int> k_n(r->timeline.size(), 0);  // senders that had pushed by each row (dgt_k holds their sum first)
  double k_total = 0;
  std::size_t k_count = 0;
  const auto add = [](std::vector<std::uint64_t>& into, const nlohmann::json& v) {
    if (into.size() < v.size()) into.resize(v.size(), 0);
    for (std::size_t i = 0; i < v.size(); ++i) into[i] += v[i].get<std::uint64_t>();
  };
  bool any = false;
  for (const RoleReport& rr : reports) {
    if (rr.report.is_null() || !rr.report.contains("dgt")) continue;
    any = true;
    const nlohmann::json& d = rr.report["dgt"];
    add(sent, d["sent"]);
    add(on_time, d["on_time"]);
    add(late, d["late"]);
    pushes += d["pushes_sent"].get<std::uint64_t>();
    assembled += d["pushes_assembled"].get<std::uint64_t>();
    zero += d["zero_blocks"].get<std::uint64_t>();
    unsent += d["unsent"].get<std::uint64_t>();
    rejected += d["rejected"].get<std::uint64_t>();
    const nlohmann::json& h = d["k_history"];
    at_each_row(h, r->timeline, [&](TimelineRow& row, const nlohmann::json& x) {
      if (x.is_null()) return;
      row.dgt_k += x[1].get<double>();
      ++k_n[std::size_t(&row - r->timeline.data())];
    });
    for (const auto& x : h) {
      k_total += x[1].get<double>();
      ++k_count;
    }
  }
  if (!any) return;
  for (std::size_t row = 0; row < r->timeline.size(); ++row)
    if (k_n[row] > 0) r->timeline[row].dgt_k /= k_n[row];
  nlohmann::json channels = nlohmann::json::array();
  for (std::size_t c = 0; c < sent.size(); ++c) {
    const std::uint64_t s = sent[c], o = c < on_time.size() ? on_time[c] : 0, l = c < late.size() ? late[c] : 0;
    channels.push_back({{"channel", c},
                        {"reliable", c == 0 || !best_effort},
                        {"sent", s},
                        {"delivered", o},
                        {"late", l},
                        {"lost", s > o + l ? s - o - l : 0}});
  }
  r->dgt = {{"channels", channels},
            {"pushes_sent", pushes},
            {"pushes_assembled", assembled},
            {"zero_blocks", zero},
            {"unsent", unsent},
            {"rejected", rejected},
            {"k_mean", k_count > 0 ? k_total / double(k_count) : 0.0}};
}
// The summary's schedule, from the scheduling layer's "sched" reports: per
// scheduled group, its coordinator's figures and when each round's broadcast
// began, and the relays, merges and refusals of all.
void assemble_schedule(const Scenario& sc, const Deployment& dep, const std::vector<RoleReport>& reports,
                       RunResult* r) {
  if (!sc.schedule.any()) return;
  nlohmann::json groups = nlohmann::json::array();
  std::uint64_t relayed = 0, merged = 0, rejected = 0;
  for (const auto& n : dep.nodes) {
    const nlohmann::json& j = reports.at(std::size_t(n.id)).report;
    if (j.is_null() || !j.contains("sched")) continue;
    const nlohmann::json& s = j["sched"];
    rejected += s.value("rejected", std::uint64_t{0});
    if (s.contains("member")) {
      relayed += s["member"].value("models_relayed", std::uint64_t{0});
      merged += s["member"].value("pushes_merged", std::uint64_t{0});
      rejected += s["member"].value("rejected", std::uint64_t{0});
    }
    if (!s.contains("root")) continue;
    const nlohmann::json& g = s["root"];
    rejected += g.value("rejected", std::uint64_t{0});
    groups.push_back({{"root", n.name},
                      {"members", g["members"]},
                      {"orders", g["orders"]},
                      {"transfers_measured", g["transfers_measured"]},
                      {"replans", g["replans"]},
                      {"round_starts_s", g["round_starts_s"]}});
  }
  r->schedule = {{"lan", sc.schedule.lan.kind}, {"wan", sc.schedule.wan.kind}, {"groups", groups},
                 {"models_relayed", relayed},   {"pushes_merged", merged},     {"rejected", rejected}};
}
// The summary's p3: every node's slicing and overlap figures, summed.
void assemble_p3(const Scenario& sc, const std::vector<RoleReport>& reports, RunResult* r) {
  if (!sc.p3.on()) return;
  nlohmann::json sum = {{"messages_sliced", 0}, {"parts_sent", 0}, {"assembled", 0}, {"in_layer_order", 0},
                        {"early_steps", 0},     {"saved_s", 0.0},  {"rejected", 0}};
  for (const auto& rr : reports) {
    if (rr.report.is_null() || !rr.report.contains("p3")) continue;
    for (auto& [k, v] : sum.items())
      v = v.is_number_float() ? nlohmann::json(v.get<double>() + rr.report["p3"][k].get<double>())
                              : nlohmann::json(v.get<std::uint64_t>() + rr.report["p3"][k].get<std::uint64_t>());
  }
  r->p3 = sum;
}
}  // namespace

void assemble_role_reports(const Scenario& sc, const Deployment& dep, const std::vector<RoleReport>& reports,
                           RunResult* r) {
  std::vector<DcStats> dcs(sc.topology.dcs.size());
  for (std::size_t i = 0; i < dcs.size(); ++i) dcs[i].name = sc.topology.dcs[i].name;
  r->workers.clear();
  r->worker_steps = 0;
  r->compression = nlohmann::json::object();
  for (const auto& n : dep.nodes) {
    const RoleReport& rr = reports.at(std::size_t(n.id));
    if (rr.report.is_null()) continue;
    const nlohmann::json& j = rr.report;
    if (j.contains("streams"))
      for (const auto& [name, s] : j["streams"].items()) {
        nlohmann::json& t = r->compression[name];
        t["codec"] = s["codec"];
        for (const char* k : {"payloads", "dense_bytes", "sent_bytes"})
          t[k] = t.value(k, std::uint64_t{0}) + s[k].get<std::uint64_t>();
        if (s.contains("history")) add_history(name, s["history"], &r->timeline);
      }
    if (n.id == dep.global_server) {
      r->rounds = j.value("rounds", r->rounds);
      r->staleness = {{"mean", j.value("staleness_mean", 0.0)}, {"max", j.value("staleness_max", 0)}};
      r->wan_syncs = 0;
      if (j.contains("pushes_by_child"))
        for (const auto& [child, count] : j["pushes_by_child"].items())
          if (dep.nodes.at(std::stoul(child)).dc != n.dc) r->wan_syncs += count.get<std::int64_t>();
    }
    if (n.role == Role::kStateServer)
      r->state_server = {{"reports", j.value("reports", std::int64_t{0})},
                         {"push_now", j.value("push_now", std::int64_t{0})}};
    if (n.role != Role::kWorker) continue;
    const double t = std::max(1e-9, rr.run_s);
    WorkerSummary w;
    w.name = n.name;
    w.dc = sc.topology.dcs[n.dc].name;
    w.steps = j.value("steps", std::int64_t{0});
    w.pushes = j.value("pushes", std::int64_t{0});
    w.compute_busy_fraction = rr.run_s > 0 ? j.value("busy_s", 0.0) / t : 0;
    w.blocked_fraction = rr.run_s > 0 ? j.value("blocked_s", 0.0) / t : 0;
    r->worker_steps += w.steps;
    DcStats& d = dcs[n.dc];
    ++d.workers;
    d.compute_busy_fraction += w.compute_busy_fraction;
    d.blocked_fraction += w.blocked_fraction;
    d.steps += w.steps;
    d.pushes += w.pushes;
    r->workers.push_back(w);
  }
  for (auto& d : dcs)
    if (d.workers > 0) {
      d.compute_busy_fraction /= d.workers;
      d.blocked_fraction /= d.workers;
    }
  r->dcs = std::move(dcs);
  assemble_dgt(reports, sc.dgt.mode == 1, r);
  assemble_schedule(sc, dep, reports, r);
  assemble_p3(sc, reports, r);
  r->comm_time_per_round_s = comm_time_per_round(dep, reports);
  for (auto& [name, t] : r->compression.items()) {
    (void)name;
    t["ratio"] = double(t["dense_bytes"].get<std::uint64_t>()) / double(std::max<std::uint64_t>(1, t["sent_bytes"]));
    t["sent_bytes_per_round"] =
        double(t["sent_bytes"].get<std::uint64_t>()) / double(std::max<std::int64_t>(1, r->rounds));
  }
}

}  // namespace geotrain
