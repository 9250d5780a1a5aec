#include "core/topology/topology.h"

#include <algorithm>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>

namespace geotrain {
namespace {

LinkSpec read_link(JsonReader& r, const LinkSpec* def) {
  LinkSpec l;
  l.bandwidth_mbps = r.number("bandwidth_mbps", def ? std::optional<double>(def->bandwidth_mbps) : std::nullopt,
                              kMinBandwidthMbps, kMaxBandwidthMbps);
  l.latency_ms = r.number("latency_ms", def ? std::optional<double>(def->latency_ms) : std::nullopt, 0, kMaxLatencyMs);
  l.loss = r.number("loss", def ? def->loss : 0.0, 0, kMaxLoss);
  double last = -1;
  auto trace = r.objects("trace");
  if (trace.size() > kMaxTracePoints) r.fail("trace", "more than " + std::to_string(kMaxTracePoints) + " points");
  for (auto& p : trace) {
    BandwidthPoint bp{p.number("t_s", {}, 0, 1e8),
                      p.number("bandwidth_mbps", {}, kMinBandwidthMbps, kMaxBandwidthMbps)};
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
  if (dcs.size() > std::size_t(kMaxDcs))
    r.fail("dcs", "more than " + std::to_string(kMaxDcs) + " data centres (" + std::to_string(dcs.size()) +
                      "); the simulation's WAN mesh would not fit");
  if (dcs.empty()) r.fail("dcs", "expected at least one data centre");
  std::unordered_map<std::string, int> index;  // name -> DC: linear-time checks below
  long nodes = 1;
  for (auto& d : dcs) {
    DcSpec dc;
    dc.name = d.string("name", {});
    if (!index.emplace(dc.name, int(t.dcs.size())).second)
      d.fail("name", "duplicate data-centre name \"" + dc.name + "\"");
    dc.workers = int(d.integer("workers", {}, 0, kMaxWorkersPerDc));
    nodes += dc.workers + 1;
    if (nodes > kMaxNodes)
      d.fail("workers", "the topology has more than " + std::to_string(kMaxNodes) + " nodes in all");
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
  auto find_dc = [&](const std::string& n) {
    const auto it = index.find(n);
    return it == index.end() ? -1 : it->second;
  };
  t.global_server_dc = find_dc(gs);
  if (t.global_server_dc < 0) r.fail("global_server_dc", "no data centre named \"" + gs + "\"");

  JsonReader wan = r.object("wan");
  std::map<std::pair<int, int>, LinkSpec> links;  // the links given; the default fills the other pairs below
  std::optional<LinkSpec> def;
  if (wan.has("default")) {
    JsonReader d = wan.object("default");
    def = read_link(d, nullptr);
    d.finish();
  }
  std::set<std::pair<int, int>> given;
  for (auto& l : wan.objects("links")) {
    const nlohmann::json& between = l.raw("between");
    if (!between.is_array() || between.size() != 2 || !between[0].is_string() || !between[1].is_string())
      l.fail("between", "expected two data-centre names, e.g. [\"dc-a\", \"dc-b\"]");
    int a = find_dc(between[0]), b = find_dc(between[1]);
    if (a < 0 || b < 0 || a == b)
      l.fail("between", "expected two different data-centre names from /dcs, got " + between.dump());
    if (a > b) std::swap(a, b);
    if (!given.insert({a, b}).second)
      l.fail("between", "a second link between " + between[0].get<std::string>() + " and " +
                            between[1].get<std::string>() + "; give each pair once");
    links[{a, b}] = read_link(l, def ? &*def : nullptr);
    l.finish();
  }
  wan.finish();
  // One link per connected pair in (a, b) order: with a default, every pair
  // (a full mesh of 1,024 DCs is half a million links, so no map of them all).
  if (def) {
    const int n = int(t.dcs.size());
    t.wan.reserve(std::size_t(n) * std::size_t(n - 1) / 2);
    auto next = links.begin();
    for (int a = 0; a < n; ++a)
      for (int b = a + 1; b < n; ++b) {
        const bool explicit_link = next != links.end() && next->first == std::make_pair(a, b);
        t.wan.push_back({a, b, explicit_link ? next->second : *def});
        if (explicit_link) ++next;
      }
  } else {
    for (auto& [k, v] : links) t.wan.push_back({k.first, k.second, v});
  }

  // Every DC must reach the global server's DC (breadth-first over an adjacency list).
  std::vector<std::vector<int>> adjacent(t.dcs.size());
  for (const auto& w : t.wan) {
    adjacent[w.a].push_back(w.b);
    adjacent[w.b].push_back(w.a);
  }
  std::vector<char> seen(t.dcs.size(), 0);
  std::vector<int> queue = {t.global_server_dc};
  seen[t.global_server_dc] = 1;
  for (std::size_t q = 0; q < queue.size(); ++q)
    for (int y : adjacent[queue[q]])
      if (!seen[y]) seen[y] = 1, queue.push_back(y);
  for (std::size_t i = 0; i < t.dcs.size(); ++i)
    if (!seen[i]) r.fail("wan", "data centre \"" + t.dcs[i].name + "\" has no WAN path to \"" + gs + "\"");
  if (t.total_workers() == 0) r.fail("dcs", "no workers in any data centre");
  r.finish();
  return t;
}

WanRoutes::WanRoutes(const Topology& t) : adjacent_(t.dcs.size()) {
  for (std::size_t i = 0; i < t.wan.size(); ++i) {
    adjacent_[std::size_t(t.wan[i].a)].push_back({t.wan[i].b, int(i)});
    adjacent_[std::size_t(t.wan[i].b)].push_back({t.wan[i].a, int(i)});
  }
}

std::vector<int> WanRoutes::route(int a, int b) const {
  if (a == b) return {};
  std::vector<int> prev(adjacent_.size(), -2), via(adjacent_.size(), -1);  // -2: not reached yet
  std::queue<int> q;
  q.push(a);
  prev[std::size_t(a)] = -1;
  while (!q.empty() && prev[std::size_t(b)] == -2) {  // breadth first; b's first discovery is final
    const int x = q.front();
    q.pop();
    for (const auto& [y, link] : adjacent_[std::size_t(x)]) {
      if (prev[std::size_t(y)] != -2) continue;
      prev[std::size_t(y)] = x, via[std::size_t(y)] = link, q.push(y);
      if (y == b) break;
    }
  }
  std::vector<int> hops;
  if (prev[std::size_t(b)] == -2) return hops;
  for (int y = b; y != a; y = prev[std::size_t(y)]) hops.push_back(via[std::size_t(y)]);
  std::reverse(hops.begin(), hops.end());
  return hops;
}

LinkSpec wan_path(const Topology& t, int a, int b) {
  const std::vector<int> hops = WanRoutes(t).route(a, b);
  if (hops.size() == 1) return t.wan[std::size_t(hops[0])].link;
  LinkSpec path;
  path.bandwidth_mbps = 1e12;
  for (auto it = hops.rbegin(); it != hops.rend(); ++it) {  // from b back to a: the sums' order of old
    const LinkSpec& hop = t.wan[std::size_t(*it)].link;
    path.bandwidth_mbps = std::min(path.bandwidth_mbps, hop.bandwidth_mbps);
    path.latency_ms += hop.latency_ms;
    path.loss = 1 - (1 - path.loss) * (1 - hop.loss);
  }
  return path;
}

}  // namespace geotrain
