#include "real/real_config.h"

#include <arpa/inet.h>
#include <netdb.h>

#include <boost/asio/ip/address.hpp>
#include <fstream>

#include "core/json/json_reader.h"

namespace geotrain::real {
namespace {

// An IPv4 address, or a host name resolved now: a name that does not resolve is
// a config error here (and in geotrain validate), not a node retrying forever.
std::string resolve_host(JsonReader& r, const std::string& host) {
  boost::system::error_code ec;
  const auto a = boost::asio::ip::make_address(host, ec);
  if (!ec) {
    if (!a.is_v4()) r.fail("host", "expected an IPv4 address or host name, got \"" + host + "\"");
    return host;
  }
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (rc != 0 || found == nullptr) r.fail("host", "cannot resolve host \"" + host + "\": " + gai_strerror(rc));
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &reinterpret_cast<sockaddr_in*>(found->ai_addr)->sin_addr, text, sizeof text);
  freeaddrinfo(found);
  return text;
}

Endpoint read_endpoint(JsonReader& r) {
  Endpoint e;
  e.host = resolve_host(r, r.string("host", "127.0.0.1"));
  e.tcp_port = std::uint16_t(r.integer("tcp_port", {}, 1, 65535));
  e.udp_port = std::uint16_t(r.integer("udp_port", {}, 1, 65535));
  e.tls_port = std::uint16_t(r.integer("tls_port", 0, 0, 65535));
  return e;
}

nlohmann::json endpoint_json(const Endpoint& e) {
  nlohmann::json j = {{"host", e.host}, {"tcp_port", e.tcp_port}, {"udp_port", e.udp_port}};
  if (e.tls_port) j["tls_port"] = e.tls_port;
  return j;
}

// A PEM file named in the config must be readable now, not at the first connection.
std::string readable_file(JsonReader& r, const std::string& key) {
  const std::string f = r.string(key, {});
  if (!std::ifstream(f)) r.fail(key, "cannot read file \"" + f + "\"");
  return f;
}

}  // namespace

const char* to_string(TlsLinks l) {
  switch (l) {
    case TlsLinks::kWan: return "wan";
    case TlsLinks::kAll: return "all";
    default: return "off";
  }
}

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
  j["startup_timeout_s"] = startup_timeout_s;
  j["checkpoint_every"] = checkpoint_every;
  j["max_frame_bytes"] = max_frame_bytes;
  if (tls.links != TlsLinks::kOff)
    j["tls"] = {{"links", to_string(tls.links)},
                {"cert_file", tls.cert_file},
                {"key_file", tls.key_file},
                {"ca_file", tls.ca_file}};
  return j;
}

RealConfig load_real_config(const std::string& path) {
  const nlohmann::json j = load_json_file(path);
  JsonReader r(j, path, "", nullptr);
  RealConfig c;
  c.file = path;
  r.raw("$schema");
  c.scenario = r.string("scenario", {});
  c.sets = r.strings("sets", "\"path=value\" string");
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
  c.startup_timeout_s = r.positive("startup_timeout_s", 60.0);
  c.checkpoint_every = r.integer("checkpoint_every", 0, 0);
  c.max_frame_bytes = std::uint64_t(r.integer("max_frame_bytes", std::int64_t(1) << 30, 1024));
  if (!r.raw("tls").is_null()) {
    JsonReader t = r.object("tls");
    const std::string links = t.string("links", {}, {"wan", "all"});
    c.tls.links = links == "all" ? TlsLinks::kAll : TlsLinks::kWan;
    c.tls.cert_file = readable_file(t, "cert_file");
    c.tls.key_file = readable_file(t, "key_file");
    c.tls.ca_file = readable_file(t, "ca_file");
    t.finish();
    for (std::size_t i = 0; i < c.nodes.size(); ++i)
      if (c.nodes[i].tls_port == 0)
        r.fail("nodes/" + std::to_string(i) + "/tls_port", "expected a port: TLS is on, so every node listens for it");
  }
  r.finish();
  return c;
}

}  // namespace geotrain::real
