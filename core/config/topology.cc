#include "core/config/topology.h"

#include <functional>
#include <map>

namespace geotrain {
namespace {

LinkSpec read_link(JsonReader& r, const LinkSpec* def) {
  LinkSpec l;
  l.bandwidth_mbps = def ? r.positive("bandwidth_mbps", def->bandwidth_mbps) : r.positive("bandwidth_mbps", {});
  l.latency_ms = r.number("latency_ms", def ? std::optional<double>(def->latency_ms) : std::nullopt, 0, 60000);
  l.loss = r.number("loss", def ? def->loss : 0.0, 0, 0.5);
  double last = -1;
  for (auto& p : r.objects("trace")) {
    BandwidthPoint bp{p.number("t_s", {}, 0), p.positive("bandwidth_mbps", {})};
    if (bp.t_s <= last) p.fail("t_s", "trace times must increase");
    last = bp.t_s;
    p.finish();
    l.trace.push_back(bp);
  }
  return l;
}

}  // namespace

int Topology::dc_index(const std::string& n) const {
  for (std::size_t i = 0; i < dcs.size(); ++i)
    if (dcs[i].name == n) return int(i);
  return -1;
}

int Topology::total_workers() const {
  int n = 0;
  for (const auto& d : dcs) n += d.workers;
  return n;
}

Topology read_topology(JsonReader& r) {
  Topology t;
  r.raw("$schema");
  t.name = r.string("name", {});
  t.description = r.string("description", "");
  JsonReader lan = r.object("lan");
  LinkSpec lan_default = read_link(lan, nullptr);
  lan.finish();
  auto dcs = r.objects("dcs");
  if (dcs.empty()) r.fail("dcs", "expected at least one data centre");
  for (auto& d : dcs) {
    DcSpec dc;
    dc.name = d.string("name", {});
    if (t.dc_index(dc.name) >= 0) d.fail("name", "duplicate data-centre name \"" + dc.name + "\"");
    dc.workers = int(d.integer("workers", {}, 0, 4096));
    dc.worker_gflops = d.numbers("worker_gflops", 1e-6, 1e9);
    dc.worker_samples_per_s = d.numbers("worker_samples_per_s", 1e-6, 1e12);
    if (dc.worker_gflops.empty() == dc.worker_samples_per_s.empty() && dc.workers > 0)
      d.fail("", "give exactly one of worker_gflops, worker_samples_per_s (a number, or one per worker)");
    for (auto* v : {&dc.worker_gflops, &dc.worker_samples_per_s}) {
      if (v->size() == 1)
        v->assign(dc.workers, v->front());
      else if (!v->empty() && int(v->size()) != dc.workers)
        d.fail(v == &dc.worker_gflops ? "worker_gflops" : "worker_samples_per_s",
               "expected one speed per worker (" + std::to_string(dc.workers) + ")");
    }
    if (d.has("lan")) {
      JsonReader l = d.object("lan");
      dc.lan = read_link(l, &lan_default);
      l.finish();
    } else {
      dc.lan = lan_default;
    }
    d.finish();
    t.dcs.push_back(std::move(dc));
  }
  const std::string gs = r.string("global_server_dc", t.dcs[0].name);
  t.global_server_dc = t.dc_index(gs);
  if (t.global_server_dc < 0) r.fail("global_server_dc", "no data centre named \"" + gs + "\"");

  JsonReader wan = r.object("wan");
  std::map<std::pair<int, int>, LinkSpec> links;
  std::optional<LinkSpec> def;
  if (wan.has("default")) {
    JsonReader d = wan.object("default");
    def = read_link(d, nullptr);
    d.finish();
    for (int a = 0; a < int(t.dcs.size()); ++a)
      for (int b = a + 1; b < int(t.dcs.size()); ++b) links[{a, b}] = *def;
  }
  for (auto& l : wan.objects("links")) {
    const nlohmann::json& between = l.raw("between");
    if (!between.is_array() || between.size() != 2 || !between[0].is_string() || !between[1].is_string())
      l.fail("between", "expected two data-centre names, e.g. [\"dc-a\", \"dc-b\"]");
    int a = t.dc_index(between[0]), b = t.dc_index(between[1]);
    if (a < 0 || b < 0 || a == b)
      l.fail("between", "expected two different data-centre names from /dcs, got " + between.dump());
    if (a > b) std::swap(a, b);
    links[{a, b}] = read_link(l, def ? &*def : nullptr);
    l.finish();
  }
  wan.finish();
  for (auto& [k, v] : links) t.wan.push_back({k.first, k.second, v});

  // Every DC must reach the global server's DC.
  std::vector<int> seen(t.dcs.size(), 0);
  std::function<void(int)> visit = [&](int x) {
    if (seen[x]++) return;
    for (auto& w : t.wan) {
      if (w.a == x) visit(w.b);
      if (w.b == x) visit(w.a);
    }
  };
  visit(t.global_server_dc);
  for (std::size_t i = 0; i < t.dcs.size(); ++i)
    if (!seen[i]) r.fail("wan", "data centre \"" + t.dcs[i].name + "\" has no WAN path to \"" + gs + "\"");
  if (t.total_workers() == 0) r.fail("dcs", "no workers in any data centre");
  r.finish();
  return t;
}

}  // namespace geotrain
