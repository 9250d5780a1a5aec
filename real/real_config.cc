#include "real/real_config.h"

#include "core/config/json_reader.h"

namespace geotrain::real {
namespace {

Endpoint read_endpoint(JsonReader& r) {
  Endpoint e;
  e.host = r.string("host", "127.0.0.1");
  e.tcp_port = std::uint16_t(r.integer("tcp_port", {}, 1, 65535));
  e.udp_port = std::uint16_t(r.integer("udp_port", {}, 1, 65535));
  return e;
}

nlohmann::json endpoint_json(const Endpoint& e) {
  return {{"host", e.host}, {"tcp_port", e.tcp_port}, {"udp_port", e.udp_port}};
}

}  // namespace

const Endpoint& RealConfig::route(NodeId from, NodeId to) const {
  auto it = routes.find({from, to});
  return it != routes.end() ? it->second : nodes.at(std::size_t(to));
}

nlohmann::json RealConfig::to_json() const {
  nlohmann::json j;
  j["scenario"] = scenario;
  j["sets"] = sets;
  j["secret_file"] = secret_file;
  j["out"] = out;
  j["nodes"] = nlohmann::json::array();
  for (const auto& n : nodes) j["nodes"].push_back(endpoint_json(n));
  j["routes"] = nlohmann::json::array();
  for (const auto& [k, e] : routes) {
    auto r = endpoint_json(e);
    r["from"] = k.first;
    r["to"] = k.second;
    j["routes"].push_back(r);
  }
  j["heartbeat_s"] = heartbeat_s;
  j["failure_timeout_s"] = failure_timeout_s;
  j["checkpoint_every"] = checkpoint_every;
  j["max_frame_bytes"] = max_frame_bytes;
  return j;
}

RealConfig load_real_config(const std::string& path) {
  const nlohmann::json j = load_json_file(path);
  JsonReader r(j, path, "", nullptr);
  RealConfig c;
  c.file = path;
  c.scenario = r.string("scenario", {});
  const auto& sets = r.raw("sets");
  if (!sets.is_null()) {
    if (!sets.is_array()) r.fail("sets", "expected an array of \"path=value\" strings");
    for (const auto& s : sets) {
      if (!s.is_string()) r.fail("sets", "expected an array of \"path=value\" strings");
      c.sets.push_back(s.get<std::string>());
    }
  }
  c.secret_file = r.string("secret_file", {});
  c.out = r.string("out", {});
  for (auto& n : r.objects("nodes")) {
    c.nodes.push_back(read_endpoint(n));
    n.finish();
  }
  if (c.nodes.empty()) r.fail("nodes", "expected one endpoint per node");
  for (auto& x : r.objects("routes")) {
    const NodeId from = NodeId(x.integer("from", {}, 0, std::int64_t(c.nodes.size()) - 1));
    const NodeId to = NodeId(x.integer("to", {}, 0, std::int64_t(c.nodes.size()) - 1));
    c.routes[{from, to}] = read_endpoint(x);
    x.finish();
  }
  c.heartbeat_s = r.positive("heartbeat_s", 0.5);
  c.failure_timeout_s = r.positive("failure_timeout_s", 5.0);
  c.checkpoint_every = r.integer("checkpoint_every", 0, 0);
  c.max_frame_bytes = std::uint64_t(r.integer("max_frame_bytes", std::int64_t(1) << 30, 1024));
  r.finish();
  return c;
}

}  // namespace geotrain::real
